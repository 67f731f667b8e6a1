import Foundation

/// An XMP packet read tolerantly, as text: its properties are found in attribute
/// (`GPano:ProjectionType="equirectangular"`) and element
/// (`<GPano:ProjectionType>equirectangular</GPano:ProjectionType>`) form, under whatever
/// prefixes the packet binds their namespaces to. Nothing is validated as XML, so a packet that
/// is not well-formed still gives what can be found in it, and no input makes it fail.
package struct XMPPacket: Sendable {
    private let text: [UInt8]

    package init(_ packet: [UInt8]) {
        text = packet
    }

    /// The whole packet.
    package var whole: Range<Int> { 0..<text.count }

    /// The text of property `property` of `namespace` (written `conventional:property` when the
    /// packet binds no prefix of its own to it, nor `conventional` to another namespace),
    /// anywhere in the packet.
    package func value(of property: String, in namespace: String, conventionally conventional: String) -> String? {
        guard let prefix = declaredPrefix(of: namespace) ?? (declares(prefix: conventional) ? nil : conventional)
        else { return nil }
        return value(of: prefix + ":" + property, in: whole)
    }

    /// Whether the packet binds a prefix to `namespace` (`xmlns:P="namespace"`).
    package func binds(_ namespace: String) -> Bool {
        declaredPrefix(of: namespace) != nil
    }

    /// The prefix the packet binds `namespace` to (`xmlns:P="namespace"`), else `conventional`.
    package func prefix(of namespace: String, else conventional: String) -> String {
        declaredPrefix(of: namespace) ?? conventional
    }

    /// The ranges of the elements named `name` (a prefixed name), each from its start tag to
    /// the next one's (or the packet's end): where an item's properties are looked up.
    package func elements(named name: String) -> [Range<Int>] {
        let starts = occurrences(of: Array("<\(name)".utf8), in: whole).filter { isNameEnd(at: $0.upperBound) }
        return starts.indices.map { index in
            starts[index].lowerBound..<(index + 1 < starts.count ? starts[index + 1].lowerBound : text.count)
        }
    }

    /// The text of property `name` (a prefixed name) in `range`: an attribute's value, or an
    /// element's text.
    package func value(of name: String, in range: Range<Int>) -> String? {
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

    /// Whether the packet declares `prefix` (`xmlns:prefix=`), to whatever namespace.
    private func declares(prefix: String) -> Bool {
        occurrences(of: Array("xmlns:\(prefix)".utf8), in: whole).contains { found in
            var position = found.upperBound
            while position < text.count, isSpace(text[position]) { position += 1 }
            return position < text.count && text[position] == UInt8(ascii: "=")
        }
    }

    private func declaredPrefix(of namespace: String) -> String? {
        for quote in ["\"", "'"] {
            for found in occurrences(of: Array("=\(quote)\(namespace)\(quote)".utf8), in: whole) {
                var start = found.lowerBound
                while start > 0, isNameCharacter(text[start - 1]) { start -= 1 }
                let declared = String(decoding: text[start..<found.lowerBound], as: UTF8.self)
                if declared.hasPrefix("xmlns:") { return String(declared.dropFirst(6)) }
            }
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
