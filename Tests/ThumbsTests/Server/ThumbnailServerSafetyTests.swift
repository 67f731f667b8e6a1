import Foundation
import HTTPTypes
import NIOCore
import Testing
import Thumbs
import ThumbsSamples
import ThumbsTestSupport

@Suite("ThumbnailServer: tokens, limits and hostile clients")
struct ThumbnailServerSafetyTests {
    @Test func aTokenGuardsEverythingButThePageAndTheHealthCheck() async throws {
        let fixture = try ServerFixture(photos: 1) { $0.token = "s3cret-token" }
        try await fixture.run { client, _ in
            for uri in ["/api/assets", "/api/albums", "/metrics", "/thumbnails/0123456789abcdef/grid"] {
                let response = try await client.get(uri)
                #expect(response.status == .unauthorized, "\(uri)")
                #expect(response.headers[.wwwAuthenticate] == #"Bearer realm="thumbs""#)
                #expect(
                    try await client.get(uri, headers: [.authorization: "Bearer wrong-token!"]).status == .unauthorized)
            }
            #expect(try await client.get("/healthz").status == .ok)
            #expect(try await client.get("/").status == .ok)
            let bearer = try await client.get("/api/assets", headers: [.authorization: "Bearer s3cret-token"])
            #expect(bearer.status == .ok)

            #expect(try await client.get("/?token=guess").status == .unauthorized)
            let login = try await client.get("/?token=s3cret-token")
            #expect(login.status == .seeOther && login.headers[.location] == "/")
            let cookie = try #require(login.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            #expect(login.headers[.setCookie]?.contains("HttpOnly") == true)
            #expect(try await client.get("/api/assets", headers: [.cookie: cookie]).status == .ok)
        }
    }

    @Test func thePageIsServedFromTheBinary() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, _ in
            let page = try await client.get("/")
            #expect(page.headers[.contentType] == "text/html; charset=utf-8")
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'self'") == true)
            #expect(try await client.get("/page.js").headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(try await client.get("/page.css").headers[.contentType] == "text/css; charset=utf-8")
        }
    }

    @Test func hugeTargetsAndHeadsAreRefused() async throws {
        let fixture = try ServerFixture(photos: 1)
        try await fixture.run { client, port in
            let long = try await client.get("/api/assets?cursor=" + String(repeating: "a", count: 5000))
            #expect(long.status == .uriTooLong)
            #expect(try long.json()["error"] as? String == "target-too-long")
            let connection = RawConnection(port: port)
            let bigHeader =
                "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Filler: \(String(repeating: "b", count: 40_000))\r\n\r\n"
            let answer = try await connection.exchange([Array(bigHeader.utf8)])
            #expect(answer.response.hasPrefix("HTTP/1.1 400") || answer.response.hasPrefix("HTTP/1.1 431"))
            #expect(answer.closed)
            // The server is still there for everyone else.
            #expect(try await client.get("/healthz").status == .ok)
        }
    }

    @Test func aClientTricklingItsHeadersIsDropped() async throws {
        let fixture = try ServerFixture(photos: 1) { $0.requestHeadTimeout = 1 }
        try await fixture.run { _, port in
            let started = ContinuousClock.now
            let trickle = "GET /healthz HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nX-B: 2\r\nX-C: 3\r\nX-D: 4\r\nX-E: 5\r\n\r\n"
                .utf8.map { [$0] }
            let answer = try await RawConnection(port: port).exchange(trickle, pause: .milliseconds(200), timeout: 20)
            #expect(answer.closed)
            #expect(!answer.response.contains("200 OK"))
            #expect(started.duration(to: .now) < .seconds(15))
            // Idle connections that never send anything are dropped the same way.
            let idle = try await RawConnection(port: port).exchange([], timeout: 10)
            #expect(idle.closed)
            let prompt = try await RawConnection(port: port).request("GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(prompt.hasPrefix("HTTP/1.1 200"))
        }
    }

    @Test func aFloodOfMissesIsBoundedThenAnswered503() async throws {
        let fixture = try ServerFixture(photos: 0) { $0.maxPendingRenders = 2 }
        for index in 0..<12 {
            try fixture.photos.write(
                try SyntheticImage(width: 3000, height: 2000).encoded(as: .png), to: "big-\(index).png")
        }
        try await fixture.run { client, port in
            let ids = try await client.allAssets().compactMap { $0["id"] as? String }
            #expect(ids.count == 12)
            let statuses = try await withThrowingTaskGroup(of: String.self) { group in
                for id in ids {
                    group.addTask {
                        try await RawConnection(port: port).request(
                            "GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let busy = statuses.filter { $0.hasPrefix("HTTP/1.1 503") }
            #expect(!busy.isEmpty)
            #expect(busy.allSatisfy { $0.contains("Retry-After: 1") && $0.contains(#""error":"busy""#) })
            #expect(statuses.allSatisfy { $0.hasPrefix("HTTP/1.1 200") || $0.hasPrefix("HTTP/1.1 503") })
            // Once the flood has passed, every miss renders.
            for id in ids { #expect(try await client.get("/thumbnails/\(id)/grid").status == .ok) }
        }
    }

    /// A preheat request whose body comes a byte at a time: each byte would move an idle
    /// bound, but the whole body has a deadline.
    @Test func aClientTricklingABodyIsDroppedWhileOthersAreAnswered() async throws {
        let fixture = try ServerFixture(photos: 1) { $0.requestBodyTimeout = 1 }
        try await fixture.run { _, port in
            let started = ContinuousClock.now
            try await withThrowingTaskGroup(of: (response: String, closed: Bool).self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let answer = try await RawConnection(port: port).exchange(
                            Self.tricklingPreheat, pause: .milliseconds(200), timeout: 10)
                        return (answer.response, answer.closed)
                    }
                }
                for _ in 0..<5 {
                    let health = try await RawConnection(port: port).request(
                        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    #expect(health.hasPrefix("HTTP/1.1 200"))
                }
                for try await answer in group {
                    #expect(answer.closed)
                    #expect(!answer.response.contains("200 OK"))
                }
            }
            #expect(started.duration(to: .now) < .seconds(15))
        }
    }

    /// The same body under a whole bound it would keep, but far slower than the least rate.
    @Test func aBodySlowerThanTheLeastRateIsDropped() async throws {
        let fixture = try ServerFixture(photos: 1) {
            $0.requestBodyTimeout = 60
            $0.minRequestBodyRate = 1000
        }
        try await fixture.run { _, port in
            let answer = try await RawConnection(port: port).exchange(
                Self.tricklingPreheat, pause: .milliseconds(200), timeout: 10)
            #expect(answer.closed)
            #expect(!answer.response.contains("200 OK"))
        }
    }

    /// A preheat head announcing 1000 bytes, then 100 of them one at a time: 20 s at 5 bytes a second.
    private static let tricklingPreheat =
        [Array("POST /api/preheat HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n".utf8)]
        + Array(repeating: Array(" ".utf8), count: 100)

    /// HTTP/1.0 ends a connection after each answer unless the client asks to keep it: the
    /// client reads the answer to its end as the connection's end.
    @Test func anHTTP10RequestIsAnsweredThenClosed() async throws {
        // A head timeout longer than the wait: only the end of the answer may close.
        let fixture = try ServerFixture(photos: 1) { $0.requestHeadTimeout = 120 }
        try await fixture.run { _, port in
            for (target, status) in [("/healthz", "200"), ("/api/assets", "200"), ("/no-such-page", "404")] {
                let answer = try await RawConnection(port: port).exchange(
                    [Array("GET \(target) HTTP/1.0\r\n\r\n".utf8)], timeout: 20)
                #expect(answer.response.hasPrefix("HTTP/1.1 \(status)"), "\(target)")
                #expect(answer.closed, "\(target)")
            }
        }
    }

    /// Clients that give up on opportunistic requests (the grid page cancels loads when a user
    /// scrolls fast) before any of the answer is written: each request took a render slot, and
    /// the answer that would have given it back is never written.
    @Test func opportunisticRequestsResetBeforeTheirAnswerGiveTheirSlotsBack() async throws {
        let fixture = try ServerFixture(photos: 0) { $0.maxPendingRenders = 8 }
        for index in 0..<12 { try fixture.photos.addPhotoWithPreview("with-preview-\(index).jpg") }
        try await fixture.run { client, port in
            let ids = try await client.allAssets().compactMap { $0["id"] as? String }
            #expect(ids.count == 12)
            let requests = (0..<300).map { index in
                "GET /thumbnails/\(ids[index % ids.count])/large?delivery=opportunistic HTTP/1.1\r\nHost: x\r\n\r\n"
            }
            try await RawConnection(port: port).sendAndReset(requests)
            // Settled: every request reached its route (answered or refused busy), no slot held.
            let settled = try await client.waitForMetrics(within: .seconds(60)) { metrics in
                metrics.total("thumbs_requests_total{route=\"thumbnail\"") == 300
                    && metrics.total("thumbs_render_requests_pending") == 0
            }
            #expect(settled, "the slots of the reset requests are still held")
            for id in ids {
                let response = try await client.get("/thumbnails/\(id)/large?delivery=opportunistic")
                // Two parts, or one when a reset came too late to stop the final render.
                #expect(response.status == .ok)
                if response.status == .ok {
                    #expect(try MultipartParts(Array(response.body.readableBytesView)).closed)
                }
            }
        }
    }
}

extension ServerClient {
    /// Reads `/metrics` until `condition` holds of its text, for at most `bound`; whether it came to hold.
    func waitForMetrics(within bound: Duration, until condition: (MetricsText) -> Bool) async throws -> Bool {
        let deadline = ContinuousClock.now + bound
        while ContinuousClock.now < deadline {
            if condition(MetricsText(try await get("/metrics").text)) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }
}

/// The Prometheus exposition of `/metrics`, read line by line.
struct MetricsText {
    let text: String

    init(_ text: String) {
        self.text = text
    }

    /// The sum of the samples whose line starts with `prefix` (a name, or a name and the
    /// first of its labels).
    func total(_ prefix: String) -> Double {
        text.split(separator: "\n").reduce(0) { sum, line in
            guard line.hasPrefix(prefix), let value = line.split(separator: " ").last.flatMap({ Double($0) }) else {
                return sum
            }
            return sum + value
        }
    }
}
