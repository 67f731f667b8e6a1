import HTTPTypes
import Hummingbird

/// One route of `thumbs serve`: its method and path (`{name}` a parameter, as in OpenAPI, which
/// Hummingbird reads too), the group its requests are counted under in the metrics, whether it is
/// answered without the token, and its handler. The server's routes are one table of these
/// (``ThumbnailService/routes``): the router is built from it, and the middleware reads each
/// request's group and whether it needs the token from it, so a route is declared in one place.
/// docs/openapi.json describes the same table, and a test holds the two equal.
struct ServerRoute: Sendable {
    /// What a request is counted under in `thumbs_requests_total` and the latency histogram.
    enum Group: String, CaseIterable, Sendable {
        case thumbnail, api, page, metrics, health
        /// A request no route matched.
        case other
    }

    var method: HTTPRequest.Method
    var path: RouterPath
    var group: Group
    /// Whether anyone may ask, token or not: the page (it holds no data) and the health check.
    var isOpen = false
    var handler: @Sendable (Request, ServerRequestContext) async throws -> Response
    /// The answer memory alone gives a request of the route on the event loop that read it, from
    /// the request's target, its path's captures and the library index's generation; nil when
    /// the handler must answer (``MemoryHitHandler``). Nil for routes never answered so.
    var memoryAnswer: (@Sendable (_ target: String, _ captures: Captures, _ generation: Int) -> ReadyAnswers.Entry?)? =
        nil

    /// The values of a path's `{name}` components, by name.
    typealias Captures = [Substring: Substring]

    /// The captures of `path` (a request's path, without its query) when the route's path
    /// matches it, component by component, as Hummingbird's router would; nil otherwise.
    func captures(in path: Substring) -> Captures? {
        let segments = path.split(separator: "/", omittingEmptySubsequences: true)
        guard segments.count == self.path.components.count else { return nil }
        var captures: Captures = [:]
        for (component, segment) in zip(self.path.components, segments) {
            guard component ~= segment else { return nil }
            let name = component.description
            if name.hasPrefix("{") && name.hasSuffix("}") { captures[name.dropFirst().dropLast()] = segment }
        }
        return captures
    }

    /// What the middleware needs to know of the route a request matched.
    struct Traits: Sendable {
        var group: Group
        var isOpen: Bool
    }

    var traits: Traits { Traits(group: group, isOpen: isOpen) }
}
