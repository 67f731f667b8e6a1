/// What a write of the ``LibraryCatalog`` changed in the library's listing, by asset id: a burst
/// frame hidden behind the frame that stands for its burst is not listed, so one that comes to
/// stand for it is inserted, one that stops is removed, and one hidden before and after is not
/// mentioned.
public struct CatalogChanges: Sendable, Hashable {
    public var removed: [String] = []
    public var inserted: [String] = []
    /// Listed before and after, its record changed (its file, its placeholder, its Live Photo's
    /// movie, its burst).
    public var changed: [String] = []

    public init(removed: [String] = [], inserted: [String] = [], changed: [String] = []) {
        (self.removed, self.inserted, self.changed) = (removed, inserted, changed)
    }

    public var isEmpty: Bool { removed.isEmpty && inserted.isEmpty && changed.isEmpty }

    mutating func note(_ id: String, listedBefore: Bool, listedNow: Bool) {
        switch (listedBefore, listedNow) {
        case (true, true): changed.append(id)
        case (false, true): inserted.append(id)
        case (true, false): removed.append(id)
        case (false, false): break
        }
    }
}
