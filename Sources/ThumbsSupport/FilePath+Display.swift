import Glibc
import SystemPackage

extension FilePath {
    /// The path as text for people: valid UTF-8 as it is, every other byte as `\xHH`.
    ///
    /// File names on Linux are bytes, and not all are UTF-8 (names from old archives, other
    /// locales, other systems). The path itself stays bytes wherever a file is opened; this text
    /// is only shown, so no two different names look alike the way `description`'s U+FFFD
    /// replacement makes them.
    public var displayString: String {
        withPlatformString { Self.display(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
    }

    /// The path's bytes, as the file system has them (no terminating NUL).
    package var bytes: [UInt8] {
        withPlatformString { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
    }

    /// The path made of `bytes`, which hold no NUL.
    package init(bytes: some Collection<UInt8>) {
        self.init(platformString: bytes.map { CChar(bitPattern: $0) } + [0])
    }

    /// `bytes` as text: valid UTF-8 sequences as they are, every other byte as `\xHH`.
    public static func display(_ bytes: UnsafeRawBufferPointer) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var shown = ""
        var start = bytes.startIndex
        while start < bytes.endIndex {
            // The longest valid UTF-8 run from `start`, then one byte that is not.
            var end = start
            var decoder = UTF8()
            var iterator = bytes[start...].makeIterator()
            var scalars = String.UnicodeScalarView()
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    scalars.append(scalar)
                    end += UTF8.width(scalar)
                case .emptyInput, .error:
                    break decoding
                }
            }
            shown.unicodeScalars.append(contentsOf: scalars)
            if end < bytes.endIndex {
                shown += "\\x" + String(bytes[end], radix: 16, uppercase: true).leftPadded(to: 2)
                end += 1
            }
            start = end
        }
        return shown
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        String(repeating: "0", count: Swift.max(0, width - count)) + self
    }
}
