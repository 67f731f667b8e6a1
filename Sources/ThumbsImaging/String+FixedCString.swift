import Foundation

extension String {
    /// The text of a fixed-size `char` array of a C struct (imported as a tuple), up to its NUL,
    /// without surrounding spaces; nil when empty.
    init?<Field>(fixedCString field: Field) {
        let text = withUnsafeBytes(of: field) { bytes in
            String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        self = trimmed
    }
}

extension String {
    /// The message a C function wrote into `buffer`, up to its NUL.
    init(cMessage buffer: [CChar]) {
        self = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
