import ThumbsSupport

/// Which client preheats what, so that one client's `DELETE /api/preheat` never stops what
/// another still wants: the manager is asked to start an asset's preheat when the first client
/// wants it and to stop when the last one no longer does.
///
/// Clients are bounded, as anyone can name a new one with each request: past
/// ``Limits/clients``, the least recently seen is forgotten, and so is any client not seen for
/// ``Limits/idleTime`` (a page closed without saying so). What a forgotten client alone
/// preheated is stopped; the outcome of the request that forgot it says what.
final class PreheatRegistry: Sendable {
    struct Key: Hashable, Sendable {
        var assetID: String
        var rendition: String
    }

    struct Limits: Sendable {
        /// Keys one client may hold at once.
        var keysPerClient: Int
        /// Clients kept at once.
        var clients: Int
        /// How long a client is kept after its last request.
        var idleTime: Duration
    }

    private struct Client {
        var keys: Set<Key> = []
        var lastSeen: ContinuousClock.Instant
        /// Names the client's latest entry in `State.seen`.
        var stamp: Int
    }

    private struct State {
        var clients: [String: Client] = [:]
        var clientsByKey: [Key: Int] = [:]
        /// Clients by when they were last seen, oldest first from `seenStart`: an entry is the
        /// client's current one when its stamp is the client's, else it is left over from an
        /// earlier request (or a forgotten client) and skipped. A queue with lazy removal keeps
        /// every request O(1) however many clients there are.
        var seen: [(client: String, stamp: Int)] = []
        var seenStart = 0
        var nextStamp = 0
    }

    let limits: Limits
    private let state = LockedValue(State())

    init(limits: Limits) {
        self.limits = limits
    }

    enum Outcome: Equatable {
        /// `changed` are the keys no other client held (to start) or holds any more (to stop);
        /// `forgotten` the keys to stop because the clients that held them were forgotten.
        case done(changed: [Key], clientTotal: Int, forgotten: [Key])
        /// Refused whole; `forgotten` as for `done`.
        case overLimit(forgotten: [Key])
    }

    /// Adds `keys` to `client`'s set; refused whole if the set would pass the limit.
    func start(_ keys: [Key], for client: String, now: ContinuousClock.Instant = .now) -> Outcome {
        state.withLock { state in
            var forgotten = Self.forgetIdle(&state, now: now, idleTime: limits.idleTime)
            var held = state.clients[client]?.keys ?? []
            let new = Set(keys).subtracting(held)
            guard held.count + new.count <= limits.keysPerClient else { return .overLimit(forgotten: forgotten) }
            if state.clients[client] == nil, !new.isEmpty {
                while state.clients.count >= limits.clients, let oldest = Self.leastRecentlySeen(&state) {
                    forgotten += Self.forget(oldest, in: &state)
                }
            }
            var started: [Key] = []
            for key in new {
                held.insert(key)
                state.clientsByKey[key, default: 0] += 1
                if state.clientsByKey[key] == 1 { started.append(key) }
            }
            Self.see(client, holding: held, at: now, in: &state)
            // A key a forgotten client held and this one takes up never stopped.
            let stillHeld = Set(forgotten).intersection(held)
            return .done(
                changed: started.filter { !stillHeld.contains($0) }, clientTotal: held.count,
                forgotten: forgotten.filter { !stillHeld.contains($0) })
        }
    }

    /// Removes `keys` from `client`'s set.
    func stop(_ keys: [Key], for client: String, now: ContinuousClock.Instant = .now) -> Outcome {
        state.withLock { state in
            let forgotten = Self.forgetIdle(&state, now: now, idleTime: limits.idleTime)
            guard var held = state.clients[client]?.keys else {
                return .done(changed: [], clientTotal: 0, forgotten: forgotten)
            }
            var stopped: [Key] = []
            for key in Set(keys) where held.remove(key) != nil {
                let remaining = (state.clientsByKey[key] ?? 1) - 1
                state.clientsByKey[key] = remaining > 0 ? remaining : nil
                if remaining == 0 { stopped.append(key) }
            }
            Self.see(client, holding: held, at: now, in: &state)
            return .done(changed: stopped, clientTotal: held.count, forgotten: forgotten)
        }
    }

    /// Keys some client preheats (for tests and metrics).
    var count: Int { state.withLock { $0.clientsByKey.count } }

    /// Clients kept.
    var clientCount: Int { state.withLock { $0.clients.count } }

    /// Records that `client` holds `keys` as of `now`; a client holding nothing is not kept.
    private static func see(
        _ client: String, holding keys: Set<Key>, at now: ContinuousClock.Instant, in state: inout State
    ) {
        guard !keys.isEmpty else {
            state.clients[client] = nil
            return
        }
        state.nextStamp += 1
        state.clients[client] = Client(keys: keys, lastSeen: now, stamp: state.nextStamp)
        state.seen.append((client, state.nextStamp))
        // Left-over entries are dropped once they outnumber the clients: the queue stays
        // within twice the clients, at a cost spread over the requests that left them.
        if state.seen.count - state.seenStart > 2 * state.clients.count + 64 {
            state.seen = state.seen[state.seenStart...].filter { state.clients[$0.client]?.stamp == $0.stamp }
            state.seenStart = 0
        }
    }

    /// The client seen least recently, without taking it from the queue; nil when none is kept.
    private static func leastRecentlySeen(_ state: inout State) -> String? {
        while state.seenStart < state.seen.count {
            let (client, stamp) = state.seen[state.seenStart]
            if state.clients[client]?.stamp == stamp { return client }
            state.seenStart += 1
        }
        return nil
    }

    /// Forgets the clients not seen for `idleTime`; returns the keys no client holds any more.
    private static func forgetIdle(_ state: inout State, now: ContinuousClock.Instant, idleTime: Duration) -> [Key] {
        var forgotten: [Key] = []
        while let oldest = leastRecentlySeen(&state), let client = state.clients[oldest],
            client.lastSeen.duration(to: now) >= idleTime
        {
            forgotten += forget(oldest, in: &state)
        }
        return forgotten
    }

    /// Forgets `client`; returns the keys no other client holds.
    private static func forget(_ client: String, in state: inout State) -> [Key] {
        guard let keys = state.clients.removeValue(forKey: client)?.keys else { return [] }
        return keys.filter { key in
            let remaining = (state.clientsByKey[key] ?? 1) - 1
            state.clientsByKey[key] = remaining > 0 ? remaining : nil
            return remaining == 0
        }
    }
}
