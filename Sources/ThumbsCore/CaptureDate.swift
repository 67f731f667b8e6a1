import Foundation
import ThumbsSupport

/// When a photo was taken, as the camera wrote it: a local wall-clock time and, where the file
/// says so, its offset from UTC (EXIF `OffsetTimeOriginal`).
///
/// Day sections group by the *local* calendar day the photo was taken, so the wall-clock parts
/// are kept as written rather than converted to this machine's time zone.
/// ```swift
/// CaptureDate(exif: "2022:02:16 12:55:41", offset: "+01:00")?.date // 11:55:41 UTC
/// ```
public struct CaptureDate: Sendable, Hashable, Codable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int
    public var hour: Int, minute: Int, second: Int
    /// Offset from UTC in seconds, when the file records it.
    public var utcOffsetSeconds: Int?

    public init(
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
        utcOffsetSeconds: Int? = nil
    ) {
        (self.year, self.month, self.day) = (year, month, day)
        (self.hour, self.minute, self.second) = (hour, minute, second)
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Parses EXIF's "YYYY:MM:DD HH:MM:SS" and an optional "+HH:MM" offset; nil for the
    /// all-zero or malformed dates cameras write when their clock was never set, and for a year
    /// past EXIF's four digits, which ``description`` could not write in its fixed width.
    public init?(exif text: String, offset: String? = nil) {
        let digits = text.split(whereSeparator: { ":- T".contains($0) }).compactMap { Int($0) }
        guard digits.count >= 6, (1...12).contains(digits[1]), (1...31).contains(digits[2]),
            (0...23).contains(digits[3]), (0...59).contains(digits[4]),
            (0...60).contains(digits[5]), (1...9999).contains(digits[0])
        else { return nil }
        self.init(
            year: digits[0], month: digits[1], day: digits[2],
            hour: digits[3], minute: digits[4], second: digits[5],
            utcOffsetSeconds: offset.flatMap(Self.parseOffset))
    }

    private static func parseOffset(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let sign = trimmed.first, sign == "+" || sign == "-" else { return nil }
        let parts = trimmed.dropFirst().split(separator: ":").compactMap { Int($0) }
        guard parts.count == 2, (0...14).contains(parts[0]), (0...59).contains(parts[1]) else {
            return nil
        }
        return (sign == "-" ? -1 : 1) * (parts[0] * 3600 + parts[1] * 60)
    }

    /// The instant, using the recorded offset, else `fallback` (the library's time zone).
    public func date(fallback: TimeZone = .current) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utcOffsetSeconds.flatMap { TimeZone(secondsFromGMT: $0) } ?? fallback
        return calendar.date(
            from: DateComponents(
                year: year, month: month, day: day, hour: hour, minute: minute, second: second))
    }

    /// Encoded as its ``description``, the way people and JSON tools read dates.
    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = CaptureDate(parsing: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "expected a date like 2022-02-16T12:55:41+01:00, found \"\(text)\""))
        }
        self = parsed
    }

    /// Parses ``description``'s form: "2022-02-16T12:55:41", optionally followed by "+01:00".
    public init?(parsing text: String) {
        // The metadata cache reads one per asset on every walk: its own form is read from the
        // bytes at once, anything else as EXIF's, which takes the same values.
        if let parsed = Self.fixedForm(text.utf8) {
            self = parsed
            return
        }
        let hasOffset = text.count > 19
        guard
            let parsed = CaptureDate(
                exif: String(text.prefix(19)),
                offset: hasOffset ? String(text.dropFirst(19)) : nil),
            !hasOffset || parsed.utcOffsetSeconds != nil
        else { return nil }
        self = parsed
    }

    /// ``description``'s exact form, from its UTF-8 bytes; nil for anything else, or for values
    /// out of the ranges ``init(exif:offset:)`` accepts.
    private static func fixedForm(_ utf8: String.UTF8View) -> CaptureDate? {
        let count = utf8.count
        guard count == 19 || count == 25 else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        bytes.append(contentsOf: utf8)
        func number(_ start: Int, _ length: Int) -> Int? {
            var value = 0
            for byte in bytes[start..<start + length] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            return value
        }
        let separators: [(Int, UInt8)] = [(4, 0x2D), (7, 0x2D), (10, 0x54), (13, 0x3A), (16, 0x3A)]
        guard separators.allSatisfy({ bytes[$0.0] == $0.1 }),
            let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var offset: Int?
        if count == 25 {
            guard bytes[19] == 0x2B || bytes[19] == 0x2D, bytes[22] == 0x3A,
                let hours = number(20, 2), let minutes = number(23, 2), (0...14).contains(hours),
                (0...59).contains(minutes)
            else { return nil }
            offset = (bytes[19] == 0x2D ? -1 : 1) * (hours * 3600 + minutes * 60)
        }
        return CaptureDate(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second,
            utcOffsetSeconds: offset)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// "2022-02-16T12:55:41+01:00", or without an offset when none is recorded. The year has
    /// four digits ("0987"), so the date is always the first 19 characters, as
    /// ``init(parsing:)`` reads it back (the metadata cache keeps capture dates this way).
    public var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let digits = "\(self.year)"
        let year = self.year >= 0 ? String(repeating: "0", count: max(0, 4 - digits.count)) + digits : digits
        var text = "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))"
        if let offset = utcOffsetSeconds {
            let magnitude = abs(offset)
            text += (offset < 0 ? "-" : "+") + two(magnitude / 3600) + ":" + two(magnitude % 3600 / 60)
        }
        return text
    }
}
