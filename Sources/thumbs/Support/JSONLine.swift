import Foundation
import ThumbsSupport

/// One JSON object on one line (`JSONEncoder.OutputStyle.line`): the form of every machine-readable line the
/// commands print as they go (``JSONEvent``s, `thumbs get`'s deliveries), read by tools as the
/// lines come.
enum JSONLine {
    static func encode(_ value: some Encodable) -> String {
        let data = (try? JSONEncoder(style: .line).encode(value)) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
