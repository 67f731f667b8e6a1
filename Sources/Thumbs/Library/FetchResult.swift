/// An ordered snapshot of the library's assets, as `PHFetchResult`: what a grid shows, and what
/// later changes are described against. Newest first (by ``Asset/date``, ties by id).
public struct FetchResult: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var id: String
        public var fingerprint: FileFingerprint
    }

    public private(set) var entries: [Entry]

    public init(entries: [Entry]) {
        self.entries = entries
    }

    public init(assets: [Asset]) {
        let ordered = assets.map { ($0.date, $0.id, $0.fingerprint) }
            .sorted { $0.0 != $1.0 ? $0.0 > $1.0 : $0.1 < $1.1 }
        entries = ordered.map { Entry(id: $0.1, fingerprint: $0.2) }
    }

    public var count: Int { entries.count }
    public subscript(index: Int) -> Entry { entries[index] }
}

/// What changed between two fetch results, as `PHFetchResultChangeDetails`.
public struct ChangeDetails: Sendable, Hashable, CustomStringConvertible {
    /// Indexes, in the old result, of assets no longer there.
    public var removedIndexes: [Int]
    /// Indexes, in the new result, of assets that were not there.
    public var insertedIndexes: [Int]
    /// Indexes, in the new result, of assets still there whose file changed (same id, new
    /// fingerprint).
    public var changedIndexes: [Int]
    public var before: FetchResult
    public var after: FetchResult
    /// The inserted and changed assets by id, when the caller that found the changes had them
    /// (``PhotoLibrary/watch(debounce:)`` and ``PhotoLibrary/rescan(cursor:)`` do).
    public var assets: [String: Asset] = [:]

    /// The changes from `old` to `new`, or nil when there are none: callers are told only when
    /// something happened. A renamed file is one removal and one insertion.
    public static func between(_ old: FetchResult, _ new: FetchResult) -> ChangeDetails? {
        var oldFingerprints: [String: FileFingerprint] = [:]
        oldFingerprints.reserveCapacity(old.count)
        for entry in old.entries { oldFingerprints[entry.id] = entry.fingerprint }
        var newIDs = Set<String>(minimumCapacity: new.count)
        var inserted: [Int] = [], changed: [Int] = []
        for (index, entry) in new.entries.enumerated() {
            newIDs.insert(entry.id)
            switch oldFingerprints[entry.id] {
            case nil: inserted.append(index)
            case let fingerprint? where fingerprint != entry.fingerprint: changed.append(index)
            default: break
            }
        }
        let removed = old.entries.indices.filter { !newIDs.contains(old.entries[$0].id) }
        guard !removed.isEmpty || !inserted.isEmpty || !changed.isEmpty else { return nil }
        return ChangeDetails(removedIndexes: removed, insertedIndexes: inserted, changedIndexes: changed,
                             before: old, after: new)
    }

    public var description: String {
        "\(removedIndexes.count) removed, \(insertedIndexes.count) inserted, \(changedIndexes.count) changed"
    }
}
