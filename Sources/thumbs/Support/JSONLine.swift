import Foundation

/// One JSON object on one line, keys sorted: the form of every machine-readable event the
/// commands print (progress, failures, summaries), read by tools as the lines come.
enum JSONLine {
    static func encode(_ fields: [String: Any]) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}
