import Testing

@testable import ThumbsServer

@Suite("PreheatRegistry")
struct PreheatRegistryTests {
    private func keys(_ ids: String...) -> Set<PreheatRegistry.Key> {
        Set(ids.map { PreheatRegistry.Key(assetID: $0, rendition: "grid") })
    }

    /// What an outcome started or stopped, and the client's total after it; nil when refused.
    private func done(_ outcome: PreheatRegistry.Outcome) -> (changed: Set<PreheatRegistry.Key>, total: Int)? {
        guard case .done(let changed, let total) = outcome else { return nil }
        return (Set(changed), total)
    }

    @Test func theFirstClientStartsAndTheLastStops() throws {
        let registry = PreheatRegistry(limitPerClient: 10)
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
        let registry = PreheatRegistry(limitPerClient: 2)
        #expect(registry.start(Array(keys("a", "b", "c")), for: "one") == .overLimit)
        #expect(registry.count == 0)
        #expect(done(registry.start(Array(keys("a", "b")), for: "one"))?.total == 2)
        let again = try #require(done(registry.start(Array(keys("a")), for: "one")))
        #expect(again.changed.isEmpty && again.total == 2)
    }
}
