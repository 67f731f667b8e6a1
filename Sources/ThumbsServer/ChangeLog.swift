import ThumbsSupport

/// What changed in the library, generation by generation, for `GET /api/changes?since=`: a
/// bounded history of asset ids, merged on demand into one removed / inserted / changed set.
///
/// Tokens name this process too, so a token from before a restart reads as expired instead of
/// as a generation of another history.
struct ChangeLog: Sendable {
    struct Entry: Sendable {
        var removed: [String]
        var inserted: [String]
        var changed: [String]
    }

    /// What happened to ids since a token, after merging.
    struct Merged: Sendable, Equatable {
        var removed: [String] = []
        var inserted: [String] = []
        var changed: [String] = []
    }

    private let instance: String
    private(set) var generation: UInt64 = 0
    /// Entries for generations `generation - entries.count + 1 ... generation`.
    private var entries: [Entry] = []
    private let limit: Int

    init(limit: Int = 1024, instance: String = ChangeLog.makeInstance()) {
        self.limit = max(1, limit)
        self.instance = instance
    }

    var token: String { "\(instance)-\(generation)" }

    mutating func append(_ entry: Entry) {
        generation += 1
        entries.append(entry)
        if entries.count > limit { entries.removeFirst(entries.count - limit) }
    }

    enum Lookup: Equatable {
        case merged(Merged)
        /// Not a token of this history (malformed).
        case malformed
        /// A token of another process, or older than the history kept: reload the listing.
        case expired
    }

    /// The changes after the generation `token` names.
    func changes(since token: String) -> Lookup {
        let parts = token.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count == 16, parts[0].allSatisfy(\.isHexDigit),
            let since = UInt64(parts[1]), parts[1].allSatisfy(\.isASCII), parts[1].count <= 20
        else { return .malformed }
        guard parts[0] == instance, since <= generation else { return .expired }
        let oldestKept = generation - UInt64(entries.count)
        guard since >= oldestKept else { return .expired }
        return .merged(Self.merge(entries[Int(since - oldestKept)...]))
    }

    /// Folds entries in order: an id inserted then removed is gone, removed then inserted is
    /// changed, inserted then changed is still inserted.
    private static func merge(_ entries: ArraySlice<Entry>) -> Merged {
        enum State { case removed, inserted, changed }
        var states: [String: State] = [:]
        var order: [String] = []
        var seen: Set<String> = []
        func note(_ id: String, _ event: State) {
            guard let previous = states[id] else {
                states[id] = event
                if seen.insert(id).inserted { order.append(id) }
                return
            }
            switch (previous, event) {
            case (.inserted, .removed): states[id] = nil
            case (.removed, .inserted): states[id] = .changed
            case (.inserted, .changed): break
            default: states[id] = event
            }
        }
        for entry in entries {
            for id in entry.removed { note(id, .removed) }
            for id in entry.inserted { note(id, .inserted) }
            for id in entry.changed { note(id, .changed) }
        }
        var merged = Merged()
        for id in order {
            switch states[id] {
            case .removed: merged.removed.append(id)
            case .inserted: merged.inserted.append(id)
            case .changed: merged.changed.append(id)
            case nil: break
            }
        }
        return merged
    }

    static func makeInstance() -> String {
        UInt64.random(in: 0...UInt64.max).hexDigits
    }
}
