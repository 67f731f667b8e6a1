import Foundation
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// Day sections, newest first, kept sorted as assets arrive: each new asset is inserted in place
/// (binary search on days, then on dates) instead of re-sorting everything: a library of
/// 100,000 photos is never sorted again batch after batch. The result always equals a full sort
/// of the same assets. A burst is one item, the frame that stands for it, as PhotoKit counts it.
public struct Moments: Sendable, Hashable {
    public private(set) var sections: [Moment] = []
    public private(set) var assetCount = 0
    private let timeZone: TimeZone

    public init(timeZone: TimeZone = .current) {
        self.timeZone = timeZone
    }

    /// The moments of `assets`, by a plain full sort: the reference the incremental merge must
    /// equal.
    public init(sorting assets: [Asset], timeZone: TimeZone = .current) {
        self.timeZone = timeZone
        let byDay = Dictionary(grouping: assets.filter { !$0.isHiddenBurstFrame }) { $0.day(in: timeZone) }
        sections = byDay.keys.sorted(by: >).map { day in
            Moment(day: day, items: byDay[day]!.map(Self.item).sorted(by: Self.precedes))
        }
        assetCount = byDay.values.reduce(0) { $0 + $1.count }
    }

    public mutating func merge(_ assets: [Asset]) {
        for asset in assets where !asset.isHiddenBurstFrame { insert(asset) }
    }

    private mutating func insert(_ asset: Asset) {
        let day = asset.day(in: timeZone)
        let item = Self.item(asset)
        // Sections are newest day first.
        var low = 0, high = sections.count
        while low < high {
            let middle = (low + high) / 2
            if sections[middle].day > day { low = middle + 1 } else { high = middle }
        }
        if low < sections.count, sections[low].day == day {
            let items = sections[low].items
            var first = 0, last = items.count
            while first < last {
                let middle = (first + last) / 2
                if Self.precedes(items[middle], item) { first = middle + 1 } else { last = middle }
            }
            sections[low].items.insert(item, at: first)
        } else {
            sections.insert(Moment(day: day, items: [item]), at: low)
        }
        assetCount += 1
    }

    private static func item(_ asset: Asset) -> Moment.Item {
        Moment.Item(id: asset.id, date: asset.date, isVideo: asset.isVideo)
    }

    /// Newest first; ties by id, so the order is total.
    private static func precedes(_ lhs: Moment.Item, _ rhs: Moment.Item) -> Bool {
        lhs.date != rhs.date ? lhs.date > rhs.date : lhs.id < rhs.id
    }
}
