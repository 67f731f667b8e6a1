import Prometheus
import ThumbsSupport

/// What `GET /metrics` reports, in the Prometheus text format: requests by route and status,
/// thumbnails by the tier that answered them, renders in flight and waiting, latencies.
final class ServerMetrics: Sendable {
    /// What answered a thumbnail request: a hit in memory or the store, a render, a stand-in
    /// first (a nearby rendition or the embedded preview, before the final), or a failure.
    enum Tier: String, CaseIterable, Sendable {
        case memory, store, rendered, degraded, failed
    }

    private let registry: PrometheusCollectorRegistry
    private let tiers: [Tier: Counter]
    private let latencies: [String: DurationHistogram]
    private let inFlight: Gauge
    private let waiting: Gauge
    private let preheating: Gauge
    /// Counters of the answers every route gives (200 and 304), made ahead so that counting
    /// them takes no lock; others are made on first use (statuses are few, but not known ahead).
    private let commonResponses: [ResponseKey: Counter]
    private let otherResponses = LockedValue<[ResponseKey: Counter]>([:])

    private struct ResponseKey: Hashable {
        var route: String
        var status: Int
    }

    /// The route groups requests are counted under.
    static let routes = ServerRoute.Group.allCases.map(\.rawValue)

    init() {
        let registry = PrometheusCollectorRegistry()
        self.registry = registry
        tiers = Dictionary(
            uniqueKeysWithValues: Tier.allCases.map { tier in
                (
                    tier,
                    registry.makeCounter(
                        descriptor: Self.name("thumbnails", "total", "Thumbnails answered, by the tier they came from"),
                        labels: [("tier", tier.rawValue)])
                )
            })
        let buckets: [Duration] = [
            .microseconds(500), .milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10),
            .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .milliseconds(500),
            .seconds(1), .seconds(2.5), .seconds(5), .seconds(10),
        ]
        latencies = Dictionary(
            uniqueKeysWithValues: Self.routes.map { route in
                (
                    route,
                    registry.makeDurationHistogram(
                        descriptor: Self.name(
                            "request_duration", "seconds", "Time to the end of the response, by route"),
                        labels: [("route", route)], buckets: buckets)
                )
            })
        commonResponses = Dictionary(
            uniqueKeysWithValues: Self.routes.flatMap { route in
                [200, 304].map { status in
                    (ResponseKey(route: route, status: status), Self.responseCounter(route, status, in: registry))
                }
            })
        inFlight = registry.makeGauge(
            descriptor: Self.name("renders_in_flight", "", "Final renders running or queued in the manager"))
        waiting = registry.makeGauge(
            descriptor: Self.name("render_requests_pending", "", "Requests waiting for a render, within the bound"))
        preheating = registry.makeGauge(
            descriptor: Self.name("preheating_assets", "", "Asset renditions that clients preheat"))
    }

    func thumbnail(from tier: Tier) {
        tiers[tier]?.increment()
    }

    /// Counts a thumbnail answer under the tier its image came from (a 304 carries none).
    func count(_ answer: ThumbnailAnswer) {
        if let tier = answer.tier { thumbnail(from: tier) }
    }

    func response(route: String, status: Int, duration: Duration) {
        latencies[route]?.record(duration)
        let key = ResponseKey(route: route, status: status)
        if let counter = commonResponses[key] { return counter.increment() }
        let counter = otherResponses.withLock { counters in
            if let counter = counters[key] { return counter }
            let counter = Self.responseCounter(route, status, in: registry)
            counters[key] = counter
            return counter
        }
        counter.increment()
    }

    private static func responseCounter(_ route: String, _ status: Int, in registry: PrometheusCollectorRegistry)
        -> Counter
    {
        registry.makeCounter(
            descriptor: name("requests", "total", "Requests answered, by route and status"),
            labels: [("route", route), ("status", String(status))])
    }

    private static func name(_ metric: String, _ unit: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(namespace: "thumbs", metricName: metric, unitName: unit, helpText: help)
    }

    /// The text of `GET /metrics`, gauges read now.
    func exposition(rendersInFlight: Int, pending: Int, preheating: Int) -> [UInt8] {
        inFlight.set(Double(rendersInFlight))
        waiting.set(Double(pending))
        self.preheating.set(Double(preheating))
        var buffer: [UInt8] = []
        buffer.reserveCapacity(8192)
        registry.emit(into: &buffer)
        return buffer
    }
}
