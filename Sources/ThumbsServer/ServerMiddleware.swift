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
    private static let openPaths: Set<String> = ["/", "/page.css", "/page.js", "/thumbhash.js", "/healthz"]
    static let tokenCookie = "thumbs_token"

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let started = ContinuousClock.now
        let route = Self.route(of: request.uri.path)
        do {
            let response = try await guarded(request, context: context, next: next)
            metrics.response(route: route, status: response.status.code, duration: started.duration(to: .now))
            return response
        } catch let error as APIError {
            metrics.response(route: route, status: error.status.code, duration: started.duration(to: .now))
            throw error
        } catch let error as any HTTPResponseError {
            metrics.response(route: route, status: error.status.code, duration: started.duration(to: .now))
            throw APIError(converting: error)
        } catch {
            metrics.response(route: route, status: 500, duration: started.duration(to: .now))
            throw error
        }
    }

    private func guarded(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard (request.head.path?.utf8.count ?? 0) <= maxTargetLength else {
            throw APIError(
                status: .uriTooLong, kind: "target-too-long",
                message: "the request target is longer than \(maxTargetLength) bytes")
        }
        if let token, !Self.openPaths.contains(request.uri.path),
            !Self.carries(
                token, authorization: request.headers[.authorization], cookies: request.headers[values: .cookie])
        {
            throw APIError.unauthorized
        }
        return try await next(request, context)
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

    static func route(of path: String) -> String {
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
