import ThumbsSupport

/// Which client preheats what, so that one client's `DELETE /api/preheat` never stops what
/// another still wants: the manager is asked to start an asset's preheat when the first client
/// wants it and to stop when the last one no longer does.
final class PreheatRegistry: Sendable {
    struct Key: Hashable, Sendable {
        var assetID: String
        var rendition: String
    }

    private struct State: Sendable {
        var byClient: [String: Set<Key>] = [:]
        var clientsByKey: [Key: Int] = [:]
    }

    let limitPerClient: Int
    private let state = LockedValue(State())

    init(limitPerClient: Int) {
        self.limitPerClient = limitPerClient
    }

    enum Outcome: Equatable {
        /// `changed` are the keys no other client held (to start) or holds any more (to stop).
        case done(changed: [Key], clientTotal: Int)
        case overLimit
    }

    /// Adds `keys` to `client`'s set; refused whole if the set would pass the limit.
    func start(_ keys: [Key], for client: String) -> Outcome {
        state.withLock { state in
            var held = state.byClient[client] ?? []
            let new = Set(keys).subtracting(held)
            guard held.count + new.count <= limitPerClient else { return .overLimit }
            var started: [Key] = []
            for key in new {
                held.insert(key)
                state.clientsByKey[key, default: 0] += 1
                if state.clientsByKey[key] == 1 { started.append(key) }
            }
            state.byClient[client] = held.isEmpty ? nil : held
            return .done(changed: started, clientTotal: held.count)
        }
    }

    /// Removes `keys` from `client`'s set.
    func stop(_ keys: [Key], for client: String) -> Outcome {
        state.withLock { state in
            guard var held = state.byClient[client] else { return .done(changed: [], clientTotal: 0) }
            var stopped: [Key] = []
            for key in Set(keys) where held.remove(key) != nil {
                let remaining = (state.clientsByKey[key] ?? 1) - 1
                state.clientsByKey[key] = remaining > 0 ? remaining : nil
                if remaining == 0 { stopped.append(key) }
            }
            state.byClient[client] = held.isEmpty ? nil : held
            return .done(changed: stopped, clientTotal: held.count)
        }
    }

    /// Keys some client preheats (for tests and metrics).
    var count: Int { state.withLock { $0.clientsByKey.count } }
}
