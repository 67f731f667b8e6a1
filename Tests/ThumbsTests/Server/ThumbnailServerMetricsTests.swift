import HTTPTypes
import Testing
import ThumbsCoreTestSupport
import ThumbsTesting

@Suite("ThumbnailServer: metrics")
struct ThumbnailServerMetricsTests {
    /// An opportunistic answer's head leaves with its stand-in, and its body ends only when the
    /// final image is rendered: its latency is recorded then, not when its head left.
    @Test func aStreamedBodyIsTimedToItsEnd() async throws {
        let renderer = InMemoryRenderer()
        let fixture = try ServerFixture(photos: 1, renderer: renderer)
        try await fixture.run { client, port in
            let id = try #require(try await client.allAssets().first?["id"] as? String)
            // The grid rendition in memory: the stand-in of the large one.
            #expect(try await client.get("/thumbnails/\(id)/grid").status == .ok)
            let timed = #"thumbs_request_duration_seconds_count{route="thumbnail"} "#
            #expect(try await client.get("/metrics").text.contains(timed + "1"))
            renderer.holdsRenders = true
            let streamed = Task {
                try await RawConnection(port: port).request(
                    "GET /thumbnails/\(id)/large?delivery=opportunistic HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                )
            }
            // The final render starts inside the body, once the head and the stand-in are out.
            #expect(try await eventually { renderer.renders == 2 })
            let whileStreaming = try await client.get("/metrics").text
            #expect(whileStreaming.contains(timed + "1"))
            #expect(whileStreaming.contains(#"thumbs_requests_total{route="thumbnail",status="200"} 1"#))
            renderer.release()
            let answer = try await streamed.value
            #expect(answer.hasPrefix("HTTP/1.1 200") && answer.contains("--thumbs-image--\r\n"))
            let afterwards = try await client.get("/metrics").text
            #expect(afterwards.contains(timed + "2"))
            #expect(afterwards.contains(#"thumbs_requests_total{route="thumbnail",status="200"} 2"#))
        }
    }
}
