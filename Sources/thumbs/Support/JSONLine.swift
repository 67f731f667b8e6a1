import Foundation

/// One JSON object on one line, keys sorted: the form of every machine-readable line the
/// commands print as they go (``JSONEvent``s, `thumbs get`'s deliveries), read by tools as the
/// lines come.
enum JSONLine {
    static func encode(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
