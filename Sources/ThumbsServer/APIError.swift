import Foundation
import Hummingbird

/// What a request that cannot be answered gets: a status and a JSON body
/// `{ "error": kind, "message": text }`, `kind` a stable name a client can branch on.
struct APIError: HTTPResponseError, Sendable {
    var status: HTTPResponse.Status
    var kind: String
    var message: String
    /// Extra header fields (`Retry-After`, `WWW-Authenticate`).
    var headers: HTTPFields = [:]

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try JSONResponse.make(["error": kind, "message": message], status: status, headers: headers)
    }

    /// The JSON form of an error Hummingbird itself raised (no route, wrong method, a body too
    /// large), so that every error a client sees has the same shape.
    init(status: HTTPResponse.Status, kind: String, message: String, headers: HTTPFields = [:]) {
        self.status = status
        self.kind = kind
        self.message = message
        self.headers = headers
    }

    init(converting error: some HTTPResponseError) {
        status = error.status
        kind = error.status.reasonPhrase.lowercased().replacingOccurrences(of: " ", with: "-")
        message = error.status.reasonPhrase
        headers = [:]
    }

    static func badRequest(_ kind: String, _ message: String) -> APIError {
        APIError(status: .badRequest, kind: kind, message: message)
    }

    static func notFound(_ kind: String, _ message: String) -> APIError {
        APIError(status: .notFound, kind: kind, message: message)
    }

    static let unauthorized = APIError(
        status: .unauthorized, kind: "unauthorized", message: "this server needs a bearer token",
        headers: [.wwwAuthenticate: #"Bearer realm="thumbs""#])

    /// The render queue is full: the client should come back in a second.
    static let busy = APIError(
        status: .serviceUnavailable, kind: "busy", message: "too many renders are waiting; retry shortly",
        headers: [.retryAfter: "1"])
}
