import Testing

@testable import ThumbsServer

@Suite("ChangeLog")
struct ChangeLogTests {
    private let instance = "0123456789abcdef"

    @Test func changesSinceATokenAreMergedPerAsset() {
        var log = ChangeLog(instance: instance)
        let start = log.token
        log.append(.init(removed: ["gone"], inserted: ["a", "b"], changed: ["c"]))
        let middle = log.token
        log.append(.init(removed: ["a", "c"], inserted: ["gone"], changed: ["b"]))
        guard case .merged(let all) = log.changes(since: start) else { return #expect(Bool(false)) }
        // a: inserted then removed (nothing); gone: removed then inserted (changed);
        // b: inserted then changed (inserted); c: changed then removed (removed).
        #expect(all == .init(removed: ["c"], inserted: ["b"], changed: ["gone"]))
        guard case .merged(let last) = log.changes(since: middle) else { return #expect(Bool(false)) }
        #expect(last == .init(removed: ["a", "c"], inserted: ["gone"], changed: ["b"]))
        #expect(log.changes(since: log.token) == .merged(.init()))
    }

    @Test func tokensOfAnotherRunOrTooOldExpire() {
        var log = ChangeLog(limit: 2, instance: instance)
        let first = log.token
        for _ in 0..<3 { log.append(.init(removed: [], inserted: ["x"], changed: [])) }
        #expect(log.changes(since: first) == .expired)
        #expect(log.changes(since: "\(instance)-1") != .expired)
        #expect(log.changes(since: "fedcba9876543210-1") == .expired)
        #expect(log.changes(since: "\(instance)-99") == .expired)
    }

    @Test func malformedTokensAreSaidSo() {
        let log = ChangeLog(instance: instance)
        for token in [
            "", "x", "\(instance)", "\(instance)-", "\(instance)--1", "zz23456789abcdef-0", "\(instance)-1e3",
        ] {
            #expect(log.changes(since: token) == .malformed, "\(token)")
        }
    }
}
