import Foundation

extension Duration {
    var formattedMilliseconds: String {
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return String(format: "%.1f ms", milliseconds)
    }
}
