import Foundation
import Glibc
import Testing
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs warm`'s render workers, found under the warm's process: each confined; and while
/// they are killed (caught with a file in hand), each death costs the file that worker had,
/// remembered as `crashed`; every other photo is rendered, the next warm renders nothing and
/// skips those files, and once they change they render.
@Suite struct WarmCommandWorkerFaultTests {
    let folder = TemporaryFolder()
    var library: String { folder.path + "/library" }
    var cache: String { folder.path + "/cache" }
    static let photos = 240

    private func warm() throws -> (status: Int32, summary: [String: Any]) {
        let outcome = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json", "--quiet"])
        let last = try #require(outcome.standardOutput.split(separator: "\n").last, "\(outcome.standardError)")
        return (outcome.status, try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]))
    }

    /// Both workers of a warm on two threads are under seccomp and no-new-privs, and both were
    /// forked from the warm as it started (their program is `thumbs`, not `thumbs-render-worker`).
    @Test(.voidedBySanitizer("a worker takes no seccomp filter"))
    func theWorkersAreConfinedAndTheFirstWasForked() throws {
        // 16-bit grey with alpha, which libvips decodes: slow enough that both workers start.
        let photo = try SyntheticImage(width: 1600, height: 1200, pixels: .greyAlpha16).encoded(as: .png)
        for index in 0..<Self.photos { try folder.write(photo, to: "library/p\(index).png") }
        try folder.write(Array(#"{"workers": 2}"#.utf8), to: "two.json")
        let process = try ThumbsProcess.start(
            ["warm", library, "--cache", cache, "--quiet", "--config", folder.path + "/two.json"])
        defer {
            kill(process.processIdentifier, SIGINT)
            process.waitUntilExit()
        }
        var workers: [pid_t] = []
        // Polls the workers' state until both have confined themselves (or the warm ended).
        while process.isRunning {
            workers = RenderWorkers.children(of: process.processIdentifier)
            if workers.count == 2, workers.allSatisfy({ Self.status(of: $0).contains("Seccomp:\t2") }) { break }
            usleep(1000)
        }
        try #require(workers.count == 2, "the warm ended before both workers were confined")
        for worker in workers { #expect(Self.status(of: worker).contains("NoNewPrivs:\t1")) }
        let programs = workers.map {
            URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\($0)/exe")) ?? "")
                .lastPathComponent
        }
        #expect(programs == ["thumbs", "thumbs"])
    }

    private static func status(of pid: pid_t) -> String {
        (try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)) ?? ""
    }

    @Test func workersKilledMidDecodeCostOnlyTheirFiles() throws {
        // 16-bit grey with alpha, which libvips decodes, through a descriptor of its own: what
        // RenderWorkers.isDecoding sees.
        let photo = try SyntheticImage(width: 1600, height: 1200, pixels: .greyAlpha16).encoded(as: .png)
        for index in 0..<Self.photos { try folder.write(photo, to: "library/p\(index).png") }
        // The walk's headers read (and cached) first, so that every decode of the warm is a render.
        #expect(try ThumbsProcess.run(["albums", library, "--cache", cache, "--quiet"]).status == 0)

        let output = Pipe()
        let process = try ThumbsProcess.start(["warm", library, "--cache", cache, "--json"], output: output)
        let warming = process.processIdentifier
        var killed: [pid_t] = []
        for signal in [SIGSEGV, SIGKILL] {
            let worker = RenderWorkers.stopOneDecoding(
                among: { RenderWorkers.children(of: warming).filter { !killed.contains($0) } },
                gaveUp: { !process.isRunning })
            guard let worker else { break }
            kill(worker, signal)
            kill(worker, SIGCONT)
            killed.append(worker)
        }
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(killed.count == 2, "the warm ended before two workers were caught decoding")

        let events = text.split(separator: "\n").compactMap {
            try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
        }
        let crashed = events.filter { $0["event"] as? String == "failed" }.compactMap { event -> String? in
            event["kind"] as? String == "crashed" ? event["path"] as? String : nil
        }
        #expect(process.terminationStatus == 1)
        #expect(crashed.count == 2, "\(text.suffix(600))")
        let summary = try #require(events.last)
        #expect(summary["rendered"] as? Int == Self.photos - 2, "\(summary)")
        #expect(summary["failed"] as? Int == 2)

        let again = try warm()
        #expect(again.status == 1 && again.summary["rendered"] as? Int == 0, "\(again.summary)")
        #expect(again.summary["skippedFailures"] as? Int == 2)

        for path in crashed {
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        }
        let changed = try warm()
        #expect(changed.status == 0 && changed.summary["rendered"] as? Int == 2, "\(changed.summary)")
    }
}
