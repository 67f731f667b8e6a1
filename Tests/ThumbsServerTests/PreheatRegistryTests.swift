import Testing

@testable import ThumbsServer

@Suite("PreheatRegistry")
struct PreheatRegistryTests {
    private func keys(_ ids: String...) -> Set<PreheatRegistry.Key> {
        Set(ids.map { PreheatRegistry.Key(assetID: $0, rendition: "grid") })
    }

    private func registry(keysPerClient: Int = 10, clients: Int = 100, idleTime: Duration = .seconds(600))
        -> PreheatRegistry
    {
        PreheatRegistry(limits: .init(keysPerClient: keysPerClient, clients: clients, idleTime: idleTime))
    }

    /// What an outcome started or stopped, the client's total after it, and what forgotten
    /// clients left to stop; nil when refused.
    private func done(
        _ outcome: PreheatRegistry.Outcome
    ) -> (changed: Set<PreheatRegistry.Key>, total: Int, forgotten: Set<PreheatRegistry.Key>)? {
        guard case .done(let changed, let total, let forgotten) = outcome else { return nil }
        return (Set(changed), total, Set(forgotten))
    }

    @Test func theFirstClientStartsAndTheLastStops() throws {
        let registry = registry()
        let first = try #require(done(registry.start(Array(keys("a", "b")), for: "one")))
        #expect(first.changed == keys("a", "b") && first.total == 2)
        let second = try #require(done(registry.start(Array(keys("b", "c")), for: "two")))
        #expect(second.changed == keys("c") && second.total == 2)
        let stopOne = try #require(done(registry.stop(Array(keys("a", "b")), for: "one")))
        #expect(stopOne.changed == keys("a") && stopOne.total == 0)
        let stopTwo = try #require(done(registry.stop(Array(keys("b")), for: "two")))
        #expect(stopTwo.changed == keys("b") && stopTwo.total == 1)
        #expect(registry.count == 1)
        #expect(done(registry.stop(Array(keys("z")), for: "nobody"))?.total == 0)
    }

    @Test func aClientPastItsLimitIsRefusedWhole() throws {
        let registry = registry(keysPerClient: 2)
        #expect(registry.start(Array(keys("a", "b", "c")), for: "one") == .overLimit(forgotten: []))
        #expect(registry.count == 0)
        #expect(done(registry.start(Array(keys("a", "b")), for: "one"))?.total == 2)
        let again = try #require(done(registry.start(Array(keys("a")), for: "one")))
        #expect(again.changed.isEmpty && again.total == 2)
    }

    @Test func pastTheMostClientsTheLeastRecentlySeenIsForgotten() throws {
        let registry = registry(clients: 2)
        let start = ContinuousClock.now
        _ = registry.start(Array(keys("a", "shared")), for: "one", now: start)
        _ = registry.start(Array(keys("b", "shared")), for: "two", now: start + .seconds(1))
        // "one" is seen again: "two" is now the least recently seen.
        _ = registry.stop(Array(keys("none")), for: "one", now: start + .seconds(2))
        let third = try #require(done(registry.start(Array(keys("c")), for: "three", now: start + .seconds(3))))
        #expect(third.changed == keys("c") && third.total == 1)
        // "two"'s own key stops; the one it shared with "one" does not.
        #expect(third.forgotten == keys("b"))
        #expect(registry.clientCount == 2)
        #expect(registry.count == 3)
        #expect(done(registry.stop(Array(keys("b")), for: "two", now: start + .seconds(4)))?.total == 0)
    }

    @Test func aKeyAForgottenClientHeldAndTheNewOneTakesUpKeepsGoing() throws {
        let registry = registry(clients: 1)
        _ = registry.start(Array(keys("a", "b")), for: "one")
        let second = try #require(done(registry.start(Array(keys("b", "c")), for: "two")))
        #expect(second.changed == keys("c"))
        #expect(second.forgotten == keys("a"))
        #expect(registry.count == 2 && registry.clientCount == 1)
    }

    @Test func idleClientsAreForgottenAtTheNextRequest() throws {
        let registry = registry(idleTime: .seconds(60))
        let start = ContinuousClock.now
        _ = registry.start(Array(keys("a")), for: "idle", now: start)
        _ = registry.start(Array(keys("b")), for: "busy", now: start)
        _ = registry.start(Array(keys("c")), for: "busy", now: start + .seconds(50))
        let later = try #require(done(registry.stop([], for: "busy", now: start + .seconds(61))))
        #expect(later.forgotten == keys("a") && later.total == 2)
        #expect(registry.clientCount == 1)
        // "busy" was last seen at 61 s: kept at 120 s, forgotten at 121 s.
        #expect(done(registry.stop([], for: "other", now: start + .seconds(120)))?.forgotten == [])
        #expect(done(registry.stop([], for: "other", now: start + .seconds(121)))?.forgotten == keys("b", "c"))
        #expect(registry.clientCount == 0 && registry.count == 0)
    }

    @Test func manyClientsStayWithinTheBound() throws {
        let registry = registry(clients: 100)
        let start = ContinuousClock.now
        for index in 0..<30_000 {
            _ = registry.start(Array(keys("asset-\(index)")), for: "client-\(index)", now: start + .milliseconds(index))
        }
        #expect(registry.clientCount == 100)
        #expect(registry.count == 100)
    }
}
