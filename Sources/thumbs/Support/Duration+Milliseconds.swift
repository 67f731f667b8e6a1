import Foundation
import ThumbsSupport

extension Duration {
    var formattedMilliseconds: String {
        String(format: "%.1f ms", seconds * 1000)
    }
}
