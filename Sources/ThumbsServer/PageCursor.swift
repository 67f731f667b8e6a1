import Foundation
import ThumbsLibrary
import ThumbsSupport

/// Where a listing page ends, as an opaque string: the date and id of its last asset. Listings
/// are ordered by date, newest first, then by id, so the next page starts right after that
/// position even when assets were added or removed in between (no offset to drift).
struct PageCursor: Sendable, Hashable {
    var date: Date
    var id: String

    init(after asset: Asset) {
        date = asset.date
        id = asset.id
    }

    /// 16 hex digits of the date's bits, then the 16 of the id.
    var text: String {
        date.timeIntervalSinceReferenceDate.bitPattern.hexDigits + id
    }

    init?(_ text: String) {
        guard text.utf8.count == 32, text.utf8.allSatisfy({ Self.hexDigits.contains($0) }),
            let bits = UInt64(text.prefix(16), radix: 16)
        else { return nil }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else { return nil }
        date = Date(timeIntervalSinceReferenceDate: seconds)
        id = String(text.suffix(16))
    }

    /// Whether `asset` comes after this position in listing order.
    func precedes(_ asset: Asset) -> Bool {
        let assetDate = asset.date
        return assetDate != date ? assetDate < date : asset.id > id
    }

    /// The first of `positions` (listing order, into `assets`) after this cursor.
    func start(in positions: some RandomAccessCollection<Int>, of assets: FetchResult) -> Int {
        var low = 0, high = positions.count
        while low < high {
            let middle = (low + high) / 2
            let asset = assets[positions[positions.index(positions.startIndex, offsetBy: middle)]]
            if precedes(asset) { high = middle } else { low = middle + 1 }
        }
        return low
    }

    private static let hexDigits = Set("0123456789abcdef".utf8)
}
