import Foundation

/// What a motion photo's XMP packet says of the movie after its picture, in Google's two
/// formats: Motion Photo 1.0 (`GCamera:MotionPhoto="1"` and a `Container:Directory` whose item
/// of semantic "MotionPhoto" has the movie's `Item:Length`) and the older MicroVideo
/// (`GCamera:MicroVideo="1"`, `GCamera:MicroVideoOffset`). Both put the movie at the file's
/// end. Properties are found in attribute (`GCamera:MotionPhoto="1"`) and element
/// (`<GCamera:MotionPhoto>1</GCamera:MotionPhoto>`) form, under whatever prefixes the packet
/// binds the namespaces to; the packet is scanned as text, not validated as XML.
package struct MotionPhotoXMP: Sendable {
    private let text: [UInt8]

    package init(_ packet: [UInt8]) {
        text = packet
    }

    /// How many bytes at the end of the file the movie takes, when the packet says there is one.
    package var trailingMovieLength: UInt64? {
        let camera = prefix(of: "http://ns.google.com/photos/1.0/camera/", else: "GCamera")
        if value(of: camera + ":MotionPhoto", in: 0..<text.count) == "1" {
            return motionPhotoItemLength
        }
        if value(of: camera + ":MicroVideo", in: 0..<text.count) == "1" {
            return value(of: camera + ":MicroVideoOffset", in: 0..<text.count).flatMap(Self.length)
        }
        return nil
    }

    /// The `Item:Length` of the directory item whose `Item:Semantic` is "MotionPhoto".
    private var motionPhotoItemLength: UInt64? {
        let container = prefix(of: "http://ns.google.com/photos/1.0/container/", else: "Container")
        let item = prefix(of: "http://ns.google.com/photos/1.0/container/item/", else: "Item")
        let starts = occurrences(of: Array("<\(container):Item".utf8), in: 0..<text.count).filter {
            isNameEnd(at: $0.upperBound)
        }
        for (index, start) in starts.enumerated() {
            let end = index + 1 < starts.count ? starts[index + 1].lowerBound : text.count
            guard value(of: item + ":Semantic", in: start.lowerBound..<end) == "MotionPhoto" else { continue }
            return value(of: item + ":Length", in: start.lowerBound..<end).flatMap(Self.length)
        }
        return nil
    }

    private static func length(_ text: String) -> UInt64? {
        UInt64(text).flatMap { $0 > 0 ? $0 : nil }
    }

    /// The prefix the packet binds `namespace` to (`xmlns:P="namespace"`), else `conventional`.
    private func prefix(of namespace: String, else conventional: String) -> String {
        for quote in ["\"", "'"] {
            for found in occurrences(of: Array("=\(quote)\(namespace)\(quote)".utf8), in: 0..<text.count) {
                var start = found.lowerBound
                while start > 0, isNameCharacter(text[start - 1]) { start -= 1 }
                let declared = String(decoding: text[start..<found.lowerBound], as: UTF8.self)
                if declared.hasPrefix("xmlns:") { return String(declared.dropFirst(6)) }
            }
        }
        return conventional
    }

    /// The text of property `name` in `range`: an attribute's value, or an element's text.
    private func value(of name: String, in range: Range<Int>) -> String? {
        let bytes = Array(name.utf8)
        for found in occurrences(of: bytes, in: range) where isNameEnd(at: found.upperBound) {
            let before = found.lowerBound > 0 ? text[found.lowerBound - 1] : 0
            if before == UInt8(ascii: "<") {
                guard let open = index(of: UInt8(ascii: ">"), from: found.upperBound, before: range.upperBound),
                    text[open - 1] != UInt8(ascii: "/"),
                    let close = index(of: UInt8(ascii: "<"), from: open + 1, before: range.upperBound)
                else { continue }
                return trimmed(open + 1..<close)
            }
            guard isSpace(before) else { continue }
            var position = found.upperBound
            while position < range.upperBound, isSpace(text[position]) { position += 1 }
            guard position < range.upperBound, text[position] == UInt8(ascii: "=") else { continue }
            position += 1
            while position < range.upperBound, isSpace(text[position]) { position += 1 }
            guard position < range.upperBound,
                text[position] == UInt8(ascii: "\"") || text[position] == UInt8(ascii: "'"),
                let close = index(of: text[position], from: position + 1, before: range.upperBound)
            else { continue }
            return trimmed(position + 1..<close)
        }
        return nil
    }

    private func trimmed(_ range: Range<Int>) -> String {
        String(decoding: text[range], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// The ranges where `pattern` occurs in `range`.
    private func occurrences(of pattern: [UInt8], in range: Range<Int>) -> [Range<Int>] {
        guard !pattern.isEmpty, range.count >= pattern.count else { return [] }
        var found: [Range<Int>] = []
        var position = range.lowerBound
        while position <= range.upperBound - pattern.count {
            if text[position] == pattern[0], text[position..<position + pattern.count].elementsEqual(pattern) {
                found.append(position..<position + pattern.count)
                position += pattern.count
            } else {
                position += 1
            }
        }
        return found
    }

    private func index(of byte: UInt8, from start: Int, before end: Int) -> Int? {
        guard start < end else { return nil }
        return text[start..<end].firstIndex(of: byte)
    }

    /// Whether a name ends at `position`: the packet ends there, or a character that cannot
    /// continue a name follows (so "MicroVideo" is not found inside "MicroVideoOffset").
    private func isNameEnd(at position: Int) -> Bool {
        position >= text.count || !isNameCharacter(text[position])
    }

    private func isNameCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: ":"):
            true
        default: byte >= 0x80
        }
    }

    private func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
