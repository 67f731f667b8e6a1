/// Percentiles of a set of latencies, in milliseconds.
package struct LatencySummary: Sendable, Hashable, Codable {
    package var count: Int
    package var p50: Double?
    package var p95: Double?
    package var p99: Double?
    package var max: Double?

    /// Summarises latencies given in seconds (nearest-rank percentiles).
    package init(_ seconds: [Double]) {
        let sorted = seconds.sorted()
        count = sorted.count
        func rank(_ fraction: Double) -> Double? {
            guard !sorted.isEmpty else { return nil }
            let index = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
            return sorted[Swift.max(0, Swift.min(sorted.count - 1, index))] * 1000
        }
        p50 = rank(0.50)
        p95 = rank(0.95)
        p99 = rank(0.99)
        max = sorted.last.map { $0 * 1000 }
    }
}
