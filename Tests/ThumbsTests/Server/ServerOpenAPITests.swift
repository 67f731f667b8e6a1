import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOFoundationEssentialsCompat
import Testing

@testable import ThumbsServer

/// docs/openapi.json is the server's contract: it names every route the router has, no more, and
/// the server's JSON answers are what it says.
@Suite("The OpenAPI document")
struct ServerOpenAPITests {
    @Test func theDocumentNamesEveryRouteOfTheServer() async throws {
        let document = try OpenAPIDocument()
        let server = try await ServerFixture(photos: 0).server()
        let routes = Set(server.service.router().routes.map { "\($0.method) \($0.path)" })
        #expect(routes.subtracting(document.operations).sorted() == [], "routes the document lacks")
        #expect(document.operations.subtracting(routes).sorted() == [], "documented operations no route answers")
    }

    /// A request and the operation of the document that answers it.
    private struct Exchange {
        var operation: String
        var method: HTTPRequest.Method = .get
        var uri: String
        var body: String?
    }

    @Test func answersAreWhatTheDocumentSays() async throws {
        let document = try OpenAPIDocument()
        let fixture = try ServerFixture(photos: 2)
        try await fixture.run { client, _ in
            let listing = try await client.get("/api/assets").json()
            let id = try #require((listing["assets"] as? [[String: Any]])?.first?["id"] as? String)
            let token = try #require(listing["changeToken"] as? String)
            let exchanges = [
                Exchange(operation: "GET /healthz", uri: "/healthz"),
                Exchange(operation: "GET /api/renditions", uri: "/api/renditions"),
                Exchange(operation: "GET /api/assets", uri: "/api/assets?limit=1"),
                Exchange(operation: "GET /api/assets", uri: "/api/assets?limit=0"),
                Exchange(operation: "GET /api/albums", uri: "/api/albums"),
                Exchange(operation: "GET /api/albums/{id}/assets", uri: "/api/albums/no-such-album/assets"),
                Exchange(operation: "GET /api/moments", uri: "/api/moments"),
                Exchange(operation: "GET /api/changes", uri: "/api/changes?since=\(token)"),
                Exchange(operation: "GET /api/changes", uri: "/api/changes?since=0-0"),
                Exchange(operation: "GET /api/assets/{id}/burst", uri: "/api/assets/\(id)/burst"),
                Exchange(operation: "GET /api/assets/{id}/motion", uri: "/api/assets/\(id)/motion"),
                Exchange(operation: "GET /thumbnails/{id}/{rendition}", uri: "/thumbnails/\(id)/nonesuch"),
                Exchange(operation: "GET /thumbnails/{id}/{rendition}", uri: "/thumbnails/\(id)/grid?delivery=x"),
                Exchange(
                    operation: "POST /api/preheat", method: .post, uri: "/api/preheat",
                    body: #"{"assets":["\#(id)","0000000000000000"],"rendition":"grid"}"#),
                Exchange(operation: "DELETE /api/preheat", method: .delete, uri: "/api/preheat", body: "{}"),
            ]
            for exchange in exchanges {
                let response = try await client.execute(
                    uri: exchange.uri, method: exchange.method, headers: [:],
                    body: exchange.body.map { ByteBuffer(string: $0) })
                let status = response.status.code
                #expect(document.statuses(exchange.operation).contains(status), "\(exchange.uri): \(status)")
                let schema = try #require(
                    document.answerSchema(exchange.operation, status: status), "\(exchange.uri): \(status)")
                let answer = try JSONDecoder().decode(JSONValue.self, from: Data(buffer: response.body))
                #expect(document.mismatches(answer, schema) == [], "\(exchange.uri): \(status)")
            }
        }
    }
}
