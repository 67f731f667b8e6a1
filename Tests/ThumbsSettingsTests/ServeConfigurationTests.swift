import Foundation
import Testing
import ThumbsSettings

@Suite("ServeConfiguration")
struct ServeConfigurationTests {
    private func decode(_ json: String) throws -> ServeConfiguration {
        try JSONDecoder().decode(ThumbsConfiguration.self, from: Data(json.utf8)).serve
    }

    @Test func defaultsListenOnLoopbackWithoutAToken() throws {
        let serve = try decode("{}")
        #expect(serve.listen == "127.0.0.1:8080" && serve.address.isLoopback && serve.token == nil)
        #expect(serve.maxPendingRenders == 64 && serve.warmOnStart)
        #expect(serve.requestBodyTimeout == 30 && serve.minRequestBodyRate == 1024)
        #expect(serve.maxPreheatClients == 1000 && serve.preheatClientIdleTimeout == 600)
    }

    @Test func theBodyAndPreheatClientBoundsAreReadAndChecked() throws {
        let serve = try decode(
            #"{"serve": {"requestBodyTimeout": 5, "minRequestBodyRate": 0, "maxPreheatClients": 10, "preheatClientIdleTimeout": 60}}"#
        )
        #expect(serve.requestBodyTimeout == 5 && serve.minRequestBodyRate == 0)
        #expect(serve.maxPreheatClients == 10 && serve.preheatClientIdleTimeout == 60)
        for bad in [
            #"{"serve": {"requestBodyTimeout": 0}}"#, #"{"serve": {"minRequestBodyRate": -1}}"#,
            #"{"serve": {"maxPreheatClients": 0}}"#, #"{"serve": {"preheatClientIdleTimeout": -5}}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }

    @Test func aSectionIsReadAndChecked() throws {
        let serve = try decode(
            #"{"serve": {"listen": "[::1]:9000", "token": "abc", "maxPendingRenders": 8, "requestHeadTimeout": 2.5}}"#)
        #expect(serve.address == ListenAddress("[::1]:9000") && serve.address.port == 9000 && serve.address.isLoopback)
        #expect(serve.token == "abc" && serve.maxPendingRenders == 8 && serve.requestHeadTimeout == 2.5)
        for bad in [
            #"{"serve": {"listen": "8080"}}"#, #"{"serve": {"listen": "host:99999"}}"#,
            #"{"serve": {"token": "two words"}}"#, #"{"serve": {"token": ""}}"#,
            #"{"serve": {"maxPendingRenders": 0}}"#, #"{"serve": {"idleTimeout": -1}}"#,
            #"{"serve": {"listne": "127.0.0.1:1"}}"#,
        ] {
            #expect(throws: DecodingError.self, "\(bad)") { try decode(bad) }
        }
    }

    @Test func listenAddressesParse() {
        #expect(ListenAddress("0.0.0.0:80")?.isLoopback == false)
        #expect(ListenAddress("localhost:1")?.isLoopback == true)
        #expect(ListenAddress("127.1.2.3:1")?.description == "127.1.2.3:1")
        #expect(ListenAddress("[::1]:8080")?.description == "[::1]:8080")
        for bad in ["", ":80", "host:", "host:port", "[::1]8080", "a b:1"] {
            #expect(ListenAddress(bad) == nil, "\(bad)")
        }
    }
}
