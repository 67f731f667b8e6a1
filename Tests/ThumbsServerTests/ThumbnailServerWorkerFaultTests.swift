import Foundation
import Glibc
import Testing
import Thumbs
import ThumbsIsolation
import ThumbsTesting
import ThumbsTestSupport

/// The server on the isolated renderer, one of whose render workers dies in the middle of a
/// decode while a flood of misses is in flight: the file that worker had is answered 422
/// `crashed`, every other request gets its thumbnail, and the server goes on serving (the
/// worker is replaced). The worker is caught mid-decode and killed with a real signal, as the
/// isolation tests do, not faked.
@Suite("ThumbnailServer: a render worker dying")
struct ThumbnailServerWorkerFaultTests {
    @Test func aWorkerKilledMidDecodeFailsItsFileAloneAndTheServerGoesOn() async throws {
        let renderer = try IsolatedThumbnailRenderer(configuration: ImagingConfiguration(workers: 2))
        let fixture = try ServerFixture(photos: 0, renderer: renderer)
        // Large PNGs: a decode takes long enough to be caught in, and libvips reads a PNG
        // through a descriptor of its own, open only while it decodes. One picture encoded once
        // (encoding is slow in a debug build), in 60 files: 60 assets, each rendered on its own.
        let png = try SyntheticImage(width: 2400, height: 1800).encoded(as: .png)
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
            // Read before the flood: a slot answers for its worker only between renders.
            let workers = renderer.workerProcessIDs
            try #require(workers.count == 2)
            let idle = workers.map(StoppedWorker.descriptors(of:))

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
            let caught = try await StoppedWorker.catchMidDecode(
                workers, idle: idle, files: Set(names.values), until: { finished.value })
            // Killed where it stopped, with the file in hand (SIGKILL ends a stopped process too;
            // SIGCONT as the isolation tests send it).
            if let caught {
                kill(caught.pid, SIGKILL)
                kill(caught.pid, SIGCONT)
            }
            let answers = try await flood.value
            let victim = try #require(caught, "no worker was caught in the middle of a decode")
            let crashedID = try #require(names.first { $0.value == victim.file }?.key)
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
            // The dead worker is gone (its slot starts another when it next renders); read now
            // that nothing renders, when the slots answer at once.
            #expect(!renderer.workerProcessIDs.contains(victim.pid))
            #expect(try await client.get("/healthz").status == .ok)
        }
    }
}

/// A render worker stopped (SIGSTOP) in the middle of a decode, and the library file it holds.
struct StoppedWorker {
    let pid: pid_t
    let file: String

    /// Watches `workers` until one is decoding (beyond the descriptors it holds idle, the file
    /// handed over and libvips' own for its read) and stops it there; nil when `finished` says
    /// the renders are over before any was caught.
    static func catchMidDecode(
        _ workers: [pid_t], idle: [Int], files: Set<String>, until finished: () -> Bool
    ) async throws -> StoppedWorker? {
        while !finished() {
            for (pid, idleCount) in zip(workers, idle) where descriptors(of: pid) >= idleCount + 2 {
                kill(pid, SIGSTOP)
                // A signal is delivered, not obeyed at once: the worker counts as stopped once
                // every thread of it is, and only then are its descriptors its state.
                if try await isStopped(pid), descriptors(of: pid) >= idleCount + 2 {
                    let held = Set(heldFiles(of: pid).filter(files.contains))
                    if held.count == 1, let file = held.first { return StoppedWorker(pid: pid, file: file) }
                }
                kill(pid, SIGCONT)
            }
            // Polls the workers' state, which changes within a decode's milliseconds.
            try await Task.sleep(for: .milliseconds(1))
        }
        return nil
    }

    static func descriptors(of pid: pid_t) -> Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd")) ?? []).count
    }

    /// The names of the files `pid` has open.
    static func heldFiles(of pid: pid_t) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + descriptor))
                .map { URL(fileURLWithPath: $0).lastPathComponent }
        }
    }

    /// Waits until every thread of `pid` is stopped; false if the process is gone.
    static func isStopped(_ pid: pid_t) async throws -> Bool {
        while true {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"),
                !threads.isEmpty
            else { return false }
            let states = threads.map { state(of: "/proc/\(pid)/task/\($0)/stat") }
            if states.contains(nil) || states.contains("Z") || states.contains("X") { return false }
            if states.allSatisfy({ $0 == "T" }) { return true }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// The state letter of a `stat` file (the field after the parenthesised name).
    private static func state(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ").first.map(String.init)
    }
}
