import Foundation
import Glibc
import HTTPTypes
import NIOCore
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsIsolation
import ThumbsTestSupport
import ThumbsSamples

/// The server on the isolated renderer, one of whose render workers dies in the middle of a
/// decode while a flood of misses is in flight: the file that worker had is answered 422
/// `crashed`, every other request gets its thumbnail, and the server goes on serving (the
/// worker is replaced). The worker is caught mid-decode and killed with a real signal, as the
/// isolation tests do, not faked.
@Suite("ThumbnailServer: a render worker dying")
struct ThumbnailServerWorkerFaultTests {
    @Test func aWorkerKilledMidDecodeFailsItsFileAloneAndTheServerGoesOn() async throws {
        let renderer = try IsolatedThumbnailRenderer(configuration: ImagingConfiguration(workers: 2))
        // The flood's 50 connections write their request heads while the workers decode; on a
        // busy machine, under a sanitizer, that has taken longer than the default 10 s the
        // server gives a head, which this test is not about.
        let fixture = try ServerFixture(photos: 0, renderer: renderer) { $0.requestHeadTimeout = 300 }
        // Large PNGs of 16-bit grey with alpha: a decode takes long enough to be caught in, and
        // libvips (which decodes such a PNG) reads it through a descriptor of its own, open only while it
        // decodes. One picture encoded once (encoding is slow in a debug build), in 60 files: 60
        // assets, each rendered on its own.
        let png = try SyntheticImage(width: 2400, height: 1800, pixels: .greyAlpha16).encoded(as: .png)
        for index in 0..<60 { try fixture.photos.write(png, to: "big-\(index).png") }
        try await fixture.run { client, port in
            let assets = try await client.allAssets()
            #expect(assets.count == 60)
            let names = Dictionary(
                uniqueKeysWithValues: assets.compactMap { asset in
                    (asset["id"] as? String).flatMap { id in (asset["name"] as? String).map { (id, $0) } }
                })
            let ids = names.keys.sorted()
            let requested = Array(ids.prefix(50)), spare = Array(ids.dropFirst(50))
            let workers = renderer.workerProcessIDs
            try #require(workers.count == 2)

            // Each request on a connection of its own, all at once: misses, nothing is cached.
            let finished = Locked(false)
            let flood = Task {
                defer { finished.withLock { $0 = true } }
                return try await withThrowingTaskGroup(of: (String, [UInt8], Bool).self) { group in
                    for id in requested {
                        let request = "GET /thumbnails/\(id)/grid HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                        group.addTask {
                            // A bound only for a server that hangs: answers come within seconds.
                            let answer = try await RawConnection(port: port).exchange(
                                [Array(request.utf8)], timeout: 300)
                            return (id, answer.bytes, answer.closed)
                        }
                    }
                    return try await group.reduce(into: [String: (bytes: [UInt8], closed: Bool)]()) {
                        $0[$1.0] = ($1.1, $1.2)
                    }
                }
            }
            let caught = await RenderWorkers.stopOneDecoding(among: { workers }, gaveUp: { finished.value })
            // The library file it holds, then killed where it stopped, with the file in hand
            // (SIGKILL ends a stopped process too; SIGCONT as the isolation tests send it).
            let held = caught.map { Set(RenderWorkers.heldFiles(of: $0)).intersection(names.values) } ?? []
            if let caught {
                kill(caught, SIGKILL)
                kill(caught, SIGCONT)
            }
            let answers = try await flood.value
            let victim = try #require(caught, "no worker was caught in the middle of a decode")
            try #require(held.count == 1, "the stopped worker held \(held)")
            let crashedID = try #require(names.first { held.contains($0.value) }?.key)
            try #require(requested.contains(crashedID))

            // Every request was answered, and the server closed each connection as asked.
            #expect(answers.count == 50)
            for id in requested {
                let name = names[id] ?? id
                let raw = try #require(answers[id], "no answer for \(name)")
                #expect(raw.closed, "\(name): the connection was left open")
                let answer = try #require(RawAnswer.split(raw.bytes).first, "\(name): no HTTP answer")
                if id == crashedID {
                    // The file the worker died with: failed as a decoder crash on it would be.
                    #expect(answer.status == 422, "\(name): \(answer.status)")
                    let body = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
                    #expect(
                        body?["error"] as? String == "crashed",
                        "\(name): \(String(decoding: answer.body, as: UTF8.self))")
                } else {
                    #expect(
                        answer.status == 200,
                        "\(name): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
                    #expect(answer.fields["content-type"] == "image/jpeg", "\(name)")
                    #expect(answer.body.starts(with: [0xFF, 0xD8]), "\(name): not a JPEG")
                }
            }

            // The server still serves: a photo no request has rendered yet renders.
            for id in spare.prefix(1) {
                let response = try await client.get("/thumbnails/\(id)/grid")
                #expect(response.status == .ok, "\(names[id] ?? id)")
                #expect(Array(response.body.readableBytesView.prefix(2)) == [0xFF, 0xD8])
            }
            // The crash was remembered (the memo): the file is not decoded again until it changes.
            let again = try await client.get("/thumbnails/\(crashedID)/grid")
            #expect(again.status == .unprocessableContent)
            #expect(try again.json()["error"] as? String == "crashed")
            // The dead worker is gone (its slot starts another when it next renders).
            #expect(!renderer.workerProcessIDs.contains(victim))
            #expect(try await client.get("/healthz").status == .ok)
        }
    }
}
