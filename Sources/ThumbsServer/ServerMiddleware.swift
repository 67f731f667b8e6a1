import Foundation
import Hummingbird

/// What every request goes through before its route: the target length limit, the bearer
/// token, and the metrics (status and latency by route, errors included).
struct ServerMiddleware: RouterMiddleware {
    typealias Context = ServerRequestContext

    let token: String?
    let maxTargetLength: Int
    let metrics: ServerMetrics

    /// Routes anyone may ask: the page (it holds no data) and the health check.
    private static let openPaths: Set<Substring> = ["/", "/page.css", "/page.js", "/thumbhash.js", "/healthz"]
    static let tokenCookie = "thumbs_token"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path[...]
        let route = Self.route(of: path)
        do {
            if let refusal = refusal(
                target: request.head.path ?? "", path: path, authorization: request.headers[.authorization],
                cookies: request.headers[values: .cookie])
            {
                throw refusal
            }
            let response = try await next(request, context)
            recordResponse(route: route, status: response.status.code, since: started)
            return response
        } catch let error as APIError {
            recordResponse(route: route, status: error.status.code, since: started)
            throw error
        } catch let error as any HTTPResponseError {
            recordResponse(route: route, status: error.status.code, since: started)
            throw APIError(converting: error)
        } catch {
            recordResponse(route: route, status: 500, since: started)
            throw error
        }
    }

    /// Why a request is refused before any route sees it: a target longer than
    /// `maxTargetLength` (414), or no token where one is needed (401); nil when it may go on.
    /// ``MemoryHitHandler`` answers a request only when this is nil for it.
    func refusal(
        target: String, path: @autoclosure () -> Substring, authorization: @autoclosure () -> String?,
        cookies: @autoclosure () -> [String]
    ) -> APIError? {
        guard target.utf8.count <= maxTargetLength else {
            return APIError(
                status: .uriTooLong, kind: "target-too-long",
                message: "the request target is longer than \(maxTargetLength) bytes")
        }
        if let token, !Self.openPaths.contains(path()),
            !Self.carries(token, authorization: authorization(), cookies: cookies())
        {
            return .unauthorized
        }
        return nil
    }

    /// Counts the response to a request of `route` (``route(of:)``), with the time since
    /// `started`; ``MemoryHitHandler`` counts its answers here too.
    func recordResponse(route: String, status: Int, since started: ContinuousClock.Instant) {
        metrics.response(route: route, status: status, duration: started.duration(to: .now))
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

    static func route(of path: Substring) -> String {
        if path.hasPrefix("/thumbnails/") { return "thumbnail" }
        if path.hasPrefix("/api/") { return "api" }
        switch path {
        case "/", "/page.css", "/page.js", "/thumbhash.js": return "page"
        case "/metrics": return "metrics"
        case "/healthz": return "health"
        default: return "other"
        }
    }
}
