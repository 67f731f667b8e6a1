import Foundation

/// Readable text for a configuration decoding error: the JSON path and what was wrong.
enum ConfigurationErrorText {
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error.localizedDescription)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            return keys.isEmpty ? "(top level)" : keys.joined()
        }
        switch decoding {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)).\(key.stringValue): required field is missing"
        @unknown default:
            return "\(decoding)"
        }
    }
}
