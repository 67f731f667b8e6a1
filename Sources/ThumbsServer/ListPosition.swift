import ThumbsLibrary
import ThumbsSupport

/// Where a page of albums or moments ends, as an opaque string, for the next page to start
/// right after it whatever was added or removed in between (no offset to drift), as
/// `LibraryCatalog.Position` does for assets.
enum ListPosition {
    /// An album's place in the listing: smart albums first, in their fixed order, then folders
    /// by root and path.
    struct Album: Sendable, Comparable {
        var rank: Int
        var key: [UInt8]

        init(_ album: AssetCollection) {
            switch album.kind {
            case .smartAlbum(let kind):
                rank = SmartAlbum.allCases.firstIndex(of: kind) ?? 0
                key = []
            case .folder(let root, let path):
                rank = SmartAlbum.allCases.count
                key = Array((root + "\u{0}" + path).utf8)
            }
        }

        /// The rank in decimal, ".", then the key in hex.
        var text: String {
            "\(rank)." + key.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        }

        init?(_ text: String) {
            let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, let rank = Int(parts[0]), (0...SmartAlbum.allCases.count).contains(rank),
                parts[1].utf8.count.isMultiple(of: 2)
            else { return nil }
            var key: [UInt8] = []
            var digits = parts[1].utf8.makeIterator()
            while let high = digits.next(), let low = digits.next() {
                guard let byte = UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) else { return nil }
                key.append(byte)
            }
            self.rank = rank
            self.key = key
        }

        static func < (lhs: Self, rhs: Self) -> Bool {
            lhs.rank != rhs.rank ? lhs.rank < rhs.rank : lhs.key.lexicographicallyPrecedes(rhs.key)
        }
    }

    /// The first index of `list` whose element `isPast` says true of, for an `isPast` false up
    /// to some element and true from it on (a list in order, and a position in it): a binary
    /// search.
    static func firstIndex<List: RandomAccessCollection>(
        in list: List, where isPast: (List.Element) -> Bool
    ) -> List.Index {
        var low = list.startIndex, high = list.endIndex
        while low < high {
            let middle = list.index(low, offsetBy: list.distance(from: low, to: high) / 2)
            if isPast(list[middle]) { high = middle } else { low = list.index(after: middle) }
        }
        return low
    }

    /// The day of the last moment of a page ("2024-05-01"): the next page starts at the day
    /// before it (moments are newest first).
    static func day(_ text: String) -> Day? {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.utf8.count <= 4 }),
            let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2]),
            (1...12).contains(month), (1...31).contains(day)
        else { return nil }
        return Day(year: year, month: month, day: day)
    }
}
