import Foundation

extension CaptureDate {
    /// A video's capture date from its container's tags: QuickTime's
    /// `com.apple.quicktime.creationdate` first ("2019-05-12T10:21:33-0700", the local time
    /// with its offset, as phones write it), else `creation_time`. A `creation_time` in UTC
    /// ("…Z", as most cameras and encoders write it) is turned into `timeZone`'s wall clock, so
    /// that the video lands on the day it was shot there; one with no zone (AVI) is local time
    /// as written.
    public init?(quickTimeCreationDate: String?, creationTime: String?, timeZone: TimeZone = .current) {
        if let text = quickTimeCreationDate, let date = Self.parseISO(text, timeZone: timeZone) {
            self = date
        } else if let text = creationTime, let date = Self.parseISO(text, timeZone: timeZone) {
            self = date
        } else {
            return nil
        }
    }

    /// "YYYY-MM-DD[T ]HH:MM:SS[.fraction][Z|±HH[:]MM]".
    private static func parseISO(_ text: String, timeZone: TimeZone) -> CaptureDate? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count >= 19 else { return nil }
        let wallClock = String(trimmed.prefix(19))
        var zone = trimmed.dropFirst(19)
        if zone.first == "." { zone = zone.drop(while: { $0 == "." || $0.isNumber }) }
        guard let parsed = CaptureDate(exif: wallClock) else { return nil }
        switch zone.first {
        case nil:
            return parsed
        case "Z":
            guard zone.count == 1, let instant = parsed.date(fallback: TimeZone(secondsFromGMT: 0)!) else {
                return nil
            }
            return CaptureDate(instant: instant, timeZone: timeZone)
        case "+", "-":
            let digits = zone.dropFirst().filter(\.isNumber)
            guard digits.count == 4, let hours = Int(digits.prefix(2)), let minutes = Int(digits.suffix(2)),
                hours <= 14, minutes < 60
            else { return nil }
            var dated = parsed
            dated.utcOffsetSeconds = (zone.first == "-" ? -1 : 1) * (hours * 3600 + minutes * 60)
            return dated
        default:
            return nil
        }
    }

    /// The wall clock of `instant` in `timeZone`, with that zone's offset then.
    package init(instant: Date, timeZone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant)
        self.init(
            year: parts.year ?? 1970, month: parts.month ?? 1, day: parts.day ?? 1, hour: parts.hour ?? 0,
            minute: parts.minute ?? 0, second: parts.second ?? 0,
            utcOffsetSeconds: timeZone.secondsFromGMT(for: instant))
    }
}
