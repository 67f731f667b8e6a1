import ThumbsCore
import ThumbsRendering

/// What changed between two fetch results, as `PHFetchResultChangeDetails`.
///
/// ```swift
/// for try await changes in try await library.watch() {
///     for index in changes.insertedIndexes { insertCell(changes.after.object(at: index)) }
/// }
/// ```
public struct ChangeDetails: Sendable, Hashable, CustomStringConvertible {
    /// Indexes, in ``before``, of assets no longer there.
    public var removedIndexes: [Int]
    /// Indexes, in ``after``, of assets that were not there.
    public var insertedIndexes: [Int]
    /// Indexes, in ``after``, of assets still there whose files changed (same id, new
    /// fingerprint; for a Live Photo, of either half, or a movie found or lost; a burst frame
    /// that now stands for its burst, or no longer does).
    public var changedIndexes: [Int]
    public var before: FetchResult
    public var after: FetchResult

    /// The changes from `old` to `new`, or nil when there are none: callers are told only when
    /// something happened. A renamed file is one removal and one insertion.
    public static func between(_ old: FetchResult, _ new: FetchResult) -> ChangeDetails? {
        var oldAssets: [String: Asset] = [:]
        oldAssets.reserveCapacity(old.count)
        for asset in old { oldAssets[asset.id] = asset }
        var newIDs = Set<String>(minimumCapacity: new.count)
        var inserted: [Int] = [], changed: [Int] = []
        for (index, asset) in new.enumerated() {
            newIDs.insert(asset.id)
            switch oldAssets[asset.id] {
            case nil: inserted.append(index)
            case let before? where !asset.isUnchanged(from: before): changed.append(index)
            default: break
            }
        }
        let removed = old.indices.filter { !newIDs.contains(old[$0].id) }
        guard !removed.isEmpty || !inserted.isEmpty || !changed.isEmpty else { return nil }
        return ChangeDetails(
            removedIndexes: removed, insertedIndexes: inserted, changedIndexes: changed,
            before: old, after: new)
    }

    /// The assets that were removed, from ``before``.
    public var removedAssets: [Asset] { removedIndexes.map { before[$0] } }

    /// The assets that were inserted or whose file changed, from ``after``: what needs new
    /// thumbnails.
    public var insertedAndChangedAssets: [Asset] { (insertedIndexes + changedIndexes).map { after[$0] } }

    public var description: String {
        "\(removedIndexes.count) removed, \(insertedIndexes.count) inserted, \(changedIndexes.count) changed"
    }
}
