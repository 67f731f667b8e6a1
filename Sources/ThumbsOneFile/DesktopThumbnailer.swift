import ThumbsCore

/// The freedesktop.org thumbnailer interface, as a `.thumbnailer` file's `Exec=` line calls it
/// (`-s %s %u %o`): the size, the file by path or `file://` URI, and where its PNG goes. Both
/// `thumbs thumbnail` and `thumbs-thumbnailer` take it.
package enum DesktopThumbnailer {
    /// An INPUT that names no file of this machine.
    package struct UnreadableInput: Error {
        package let message: String
    }

    /// The rendition a thumbnailer writes for `-s size`: a PNG that fits within size×size.
    package static func spec(size: Int) -> RenditionSpec {
        RenditionSpec(size: PixelSize(width: size, height: size), contentMode: .aspectFit, format: .png)
    }

    /// The sizes `-s` takes.
    package static let sizes = 1...RenditionSpec.maximumDimension

    /// The path INPUT names: itself, or the path of a `file://` URI (empty or `localhost` host),
    /// percent-escapes decoded as bytes of UTF-8.
    package static func path(of input: String) throws(UnreadableInput) -> String {
        guard input.contains("://") else { return input }
        let scheme = "file://"
        guard input.lowercased().hasPrefix(scheme) else {
            throw UnreadableInput(message: "\(input): only file:// URIs are read")
        }
        let rest = input.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/"), ["", "localhost"].contains(rest[..<slash].lowercased()) else {
            throw UnreadableInput(message: "\(input): only files of this machine are read")
        }
        var bytes: [UInt8] = []
        var utf8 = rest[slash...].utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(hexValue), let low = utf8.next().flatMap(hexValue) else {
                throw UnreadableInput(message: "\(input): a % not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let path = String(validating: bytes, as: UTF8.self), !path.utf8.contains(0) else {
            throw UnreadableInput(message: "\(input): the path is not UTF-8")
        }
        return path
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
