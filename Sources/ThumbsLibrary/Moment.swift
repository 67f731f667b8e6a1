import Foundation
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// One day of the library, as Photos' moments: the assets taken that (local) day, newest first.
public struct Moment: Sendable, Hashable {
    public struct Item: Sendable, Hashable {
        public var id: String
        public var date: Date
        public var isVideo: Bool
    }

    public var day: Day
    public var items: [Item]
    public var count: Int { items.count }
}
