import Foundation
import Hummingbird

/// What every request goes through before its route: the target length limit, the bearer
/// token, and the metrics (status and latency by route group, errors included; a streamed body
/// timed to its end, ``ResponseTiming``). What it knows
/// of a route (its group, whether it needs the token) comes from the route table
/// (``ServerRoute``), through the endpoint Hummingbird matched.
struct ServerMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let token: String?
    let maxTargetLength: Int
    let metrics: ServerMetrics
    /// Each route's traits by its path as Hummingbird names a matched endpoint
    /// (`context.endpointPath`), with every method's alike (the path decides them).
    private let routes: [String: ServerRoute.Traits]
    static let tokenCookie = "thumbs_token"

    init(token: String?, maxTargetLength: Int, metrics: ServerMetrics, routes: [ServerRoute]) {
        self.token = token
        self.maxTargetLength = maxTargetLength
        self.metrics = metrics
        self.routes = Dictionary(
            routes.map { ($0.path.description, $0.traits) }, uniquingKeysWith: { first, _ in first })
    }

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        // No endpoint when no route matched: such a request needs the token all the same, so
        // that what is not there is not told from what is hidden.
        let route = context.endpointPath.flatMap { routes[$0] } ?? ServerRoute.Traits(group: .other, isOpen: false)
        do {
            try refuse(request, isOpen: route.isOpen)
            var context = context
            let timing = ResponseTiming()
            context.timing = timing
            let response = try await next(request, context)
            let status = response.status.code
            let record = { @Sendable [self] in recordResponse(route: route.group, status: status, since: started) }
            // A HEAD's body is dropped after this: its answer ends with its head.
            if request.method == .head { record() } else { timing.answered(record: record) }
            return response
        } catch let error as APIError {
            recordResponse(route: route.group, status: error.status.code, since: started)
            throw error
        } catch let error as any HTTPResponseError {
            recordResponse(route: route.group, status: error.status.code, since: started)
            throw APIError(converting: error)
        } catch {
            recordResponse(route: route.group, status: 500, since: started)
            throw error
        }
    }

    /// Refuses a request before its route sees it (``refusal(target:isOpen:authorization:cookies:)``).
    private func refuse(_ request: Request, isOpen: Bool) throws(APIError) {
        if let refusal = refusal(
            target: request.head.path ?? "", isOpen: isOpen, authorization: request.headers[.authorization],
            cookies: request.headers[values: .cookie])
        {
            throw refusal
        }
    }

    /// Why a request is refused before its route sees it: a target longer than
    /// `maxTargetLength` (414), or no token where one is needed (401); nil when it may go on.
    /// ``MemoryHitHandler`` answers a request only when this is nil for it.
    func refusal(
        target: String, isOpen: Bool, authorization: @autoclosure () -> String?, cookies: @autoclosure () -> [String]
    ) -> APIError? {
        guard target.utf8.count <= maxTargetLength else {
            return APIError(
                status: .uriTooLong, kind: "target-too-long",
                message: "the request target is longer than \(maxTargetLength) bytes")
        }
        if let token, !isOpen, !Self.carries(token, authorization: authorization(), cookies: cookies()) {
            return .unauthorized
        }
        return nil
    }

    /// Counts the response to a request of `route`, with the time since `started`;
    /// ``MemoryHitHandler`` counts its answers here too.
    func recordResponse(route: ServerRoute.Group, status: Int, since started: ContinuousClock.Instant) {
        metrics.response(route: route.rawValue, status: status, duration: started.duration(to: .now))
    }

    /// Whether `request` carries `token`, as a bearer token or in the page's cookie.
    static func carries(_ token: String, authorization: String?, cookies: [String]) -> Bool {
        if let authorization, authorization.hasPrefix("Bearer ") {
            return constantTimeEqual(authorization.dropFirst("Bearer ".count).utf8, token.utf8)
        }
        for cookies in cookies {
            for cookie in cookies.split(separator: ";") {
                let pair = cookie.trimmingCharacters(in: .whitespaces)
                if pair.hasPrefix(tokenCookie + "=") {
                    return constantTimeEqual(pair.dropFirst(tokenCookie.count + 1).utf8, token.utf8)
                }
            }
        }
        return false
    }

    /// Compares without stopping at the first difference, so timing does not tell how much of
    /// a guessed token was right.
    static func constantTimeEqual(_ lhs: some Collection<UInt8>, _ rhs: some Collection<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        var difference: UInt8 = 0
        for (left, right) in zip(lhs, rhs) { difference |= left ^ right }
        return difference == 0
    }
}
