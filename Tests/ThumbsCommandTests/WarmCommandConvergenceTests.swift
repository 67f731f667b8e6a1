import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs warm` over files that fail, or kill the process: every run ends, each bad file has
/// its line, and the second run renders nothing.
@Suite struct WarmCommandConvergenceTests {
    let folder = TemporaryFolder()
    var library: String { folder.path + "/library" }
    var cache: String { folder.path + "/cache" }

    private func warm() throws -> (status: Int32, summary: [String: Any], output: ThumbsProcess.Outcome) {
        let outcome = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"])
        let last = try #require(outcome.standardOutput.split(separator: "\n").last, "\(outcome.standardError)")
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        return (outcome.status, summary, outcome)
    }

    /// A configuration that decodes in the command's own process (isolation "none"), where
    /// the decode journal notes each file a render thread has: what the tests of a process that
    /// faults, and of one stopped while it renders, read.
    private func inProcess() throws -> String {
        try folder.write(Array(#"{"isolation": "none"}"#.utf8), to: "in-process.json")
    }

    /// Clips cut anywhere in their first kilobytes (a download cut short), an empty `.jpg` and a
    /// text file named `.png`: each is a failure line, the run ends, and the next one renders
    /// nothing and still says that files failed.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aFolderOfCutClipsAndFilesThatAreNoMediaConverges() throws {
        let whole = folder.path + "/whole.mp4"
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=25,trim=duration=1", "-c:v", "libx264", whole,
        ])
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: whole)))
        let lengths = Array(stride(from: 8, to: 2000, by: 40)) + [400, 480]
        for length in lengths { try folder.write(Array(bytes.prefix(length)), to: "library/cut\(length).mp4") }
        try folder.write([], to: "library/empty.jpg")
        try folder.write(Array("not a picture\n".utf8), to: "library/notes.png")
        let first = try warm()
        #expect(first.status == 1)
        #expect(first.summary["found"] as? Int == lengths.count + 2, "every file is counted: \(first.summary)")
        #expect(first.summary["done"] as? Int == lengths.count + 2)
        let lines = first.output.standardOutput.split(separator: "\n")
        #expect(lines.contains { $0.contains("empty.jpg") && $0.contains(#""kind":"empty-file""#) })
        #expect(lines.contains { $0.contains("notes.png") && $0.contains(#""kind":"unsupported-format""#) })
        let second = try warm()
        #expect(second.status == 1, "files failed before and unchanged are still failures")
        #expect(second.summary["rendered"] as? Int == 0, "\(second.summary)")
    }

    /// A render thread that faults inside a decode (SIGSEGV sent to that thread, as a fault in
    /// a C decoder raises it): the process dies, and the next warm records the file that thread
    /// was decoding as `crashed`, says so, skips it and renders every other; once it changes, it
    /// renders. The other render thread's file was no culprit and is rendered. The process is
    /// stopped while its journal is read and the signal sent, so both threads are decoding.
    @Test func aRenderThreadThatFaultsCostsOnlyItsFile() throws {
        let photo = try SyntheticImage(width: 5000, height: 4000).encoded(as: .png)
        for index in 0..<8 { try folder.write(photo, to: "library/p\(index).png") }
        let process = Process()
        process.executableURL = ThumbsProcess.executable()
        process.arguments = ["warm", library, "--cache", cache, "--json", "--quiet", "--config", try inProcess()]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.environment = ProcessInfo.processInfo.environment.merging(Self.ownFault) { $1 }
        try process.run()
        let noted = stopWhileRendering(process, files: 2)
        try #require(noted.count == 2, "the warm never had both render threads decoding")
        let thread = try #require(Self.thread(named: "thumbs-render-0", of: process.processIdentifier))
        #expect(Self.signal(thread: thread, of: process.processIdentifier, SIGSEGV) == 0)
        kill(process.processIdentifier, SIGCONT)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGSEGV)

        let after = try warm()
        #expect(after.status == 1)
        let crashed = noted.filter { after.output.standardError.contains("\($0): the process died while decoding") }
        #expect(crashed.count == 1, "\(after.output.standardError)")
        #expect(after.summary["skippedFailures"] as? Int == 1, "\(after.summary)")
        #expect((after.summary["rendered"] as? Int ?? 0) + (after.summary["fresh"] as? Int ?? 0) == 7)
        let again = try warm()
        #expect(again.status == 1 && again.summary["rendered"] as? Int == 0)
        for name in crashed {
            let path = library + "/" + name
            try FileManager.default.setAttributes(
                [.modificationDate: Date(timeIntervalSinceNow: 60)], ofItemAtPath: path)
        }
        let changed = try warm()
        #expect(changed.status == 0 && changed.summary["rendered"] as? Int == 1, "\(changed.summary)")
    }

    /// Sends `signal` to one thread of another process: glibc's `tgkill`, which Swift's Glibc
    /// module does not declare, looked up by name.
    private static func signal(thread: Int32, of process: Int32, _ signal: Int32) -> Int32 {
        typealias ThreadKill = @convention(c) (Int32, Int32, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "tgkill") else { return -1 }
        return unsafeBitCast(symbol, to: ThreadKill.self)(process, thread, signal)
    }

    /// A process that faults while it decodes (`thumbs-journal-fault`, a real SIGSEGV) on the
    /// thread that notes a file, or on a thread with no note (a decoding library's worker
    /// thread): the next warm records the first's file alone, the second's every file under way,
    /// as `crashed`, and renders the rest.
    @Test(arguments: [("noting", ["p1.jpg"]), ("other", ["p0.jpg", "p1.jpg"])])
    func aFaultMarksTheDecodesItMayHaveCaused(mode: String, crashed: [String]) throws {
        let photo = try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg)
        for index in 0..<3 { try folder.write(photo, to: "library/p\(index).jpg") }
        let root = URL(fileURLWithPath: library).standardizedFileURL.path
        let fault = try ThumbsProcess.run(
            [cache, root, mode, "p0.jpg", "p1.jpg"], executable: "thumbs-journal-fault",
            environment: Self.ownFault)
        #expect(fault.status == SIGSEGV, "\(fault.standardError)")
        #expect(fault.standardError.contains("a decoder crashed"))
        let after = try warm()
        #expect(after.status == 1)
        for name in ["p0.jpg", "p1.jpg"] {
            #expect(
                after.output.standardError.contains("\(name): the process died while decoding")
                    == crashed.contains(name),
                "\(name): \(after.output.standardError)")
        }
        // Files the walk has not read yet are not read: failures of the walk, not of renders.
        let skipped = (after.summary["skippedFailures"] as? Int ?? 0) + (after.summary["failed"] as? Int ?? 0)
        #expect(skipped == crashed.count, "\(after.summary)")
        #expect(after.summary["rendered"] as? Int == 3 - crashed.count)
    }

    /// A warm into the desktop's cache alone keeps its journal in Thumbs' state folder, and a
    /// crash there becomes the desktop cache's failure entry: the next warm skips the file.
    @Test func aFaultDuringADesktopOnlyWarmIsRememberedInTheDesktopCache() throws {
        let photo = try SyntheticImage(width: 640, height: 480).encoded(as: .jpeg)
        for index in 0..<3 { try folder.write(photo, to: "library/p\(index).jpg") }
        let root = URL(fileURLWithPath: library).standardizedFileURL.path
        let state = folder.path + "/state"
        let fault = try ThumbsProcess.run(
            [state + "/thumbs", root, "noting", "p0.jpg", "p1.jpg"], executable: "thumbs-journal-fault",
            environment: Self.ownFault)
        #expect(fault.status == SIGSEGV, "\(fault.standardError)")
        let arguments = [
            "warm", library, "--freedesktop-only", "--freedesktop-folder", folder.path + "/desktop", "--json",
        ]
        let after = try ThumbsProcess.run(arguments, environment: ["XDG_STATE_HOME": state])
        #expect(after.status == 1)
        #expect(after.standardError.contains("p1.jpg: the process died while decoding"), "\(after.standardError)")
        let last = try #require(after.standardOutput.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["skippedFailures"] as? Int == 1 && summary["rendered"] as? Int == 2, "\(summary)")
    }

    /// The environment of a process a test makes fault: the fault is the test's own, so no
    /// backtrace of it, and under AddressSanitizer no report.
    private static var ownFault: [String: String] {
        var environment = ["SWIFT_BACKTRACE": "enable=no"]
        if let options = ProcessInfo.processInfo.environment["ASAN_OPTIONS"] {
            environment["ASAN_OPTIONS"] = options + ":handle_segv=0"
        }
        return environment
    }

    /// The thread id of the thread of `process` named `name`.
    private static func thread(named name: String, of process: Int32) -> Int32? {
        let tasks = "/proc/\(process)/task"
        for tid in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
            let comm = (try? String(contentsOfFile: "\(tasks)/\(tid)/comm", encoding: .utf8)) ?? ""
            if comm.trimmingCharacters(in: .whitespacesAndNewlines) == name { return Int32(tid) }
        }
        return nil
    }

    /// Stops `process` (SIGSTOP) at a moment its journal notes `files` renders, and returns their
    /// file names, read while it is stopped; it is left stopped. Empty, and the process running,
    /// when it ended first (or never got there in five minutes).
    private func stopWhileRendering(_ process: Process, files: Int) -> [String] {
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning && Date() < deadline {
            guard Self.renderNotes(in: cache).count >= files else {
                usleep(10_000)  // between two looks at the journal
                continue
            }
            kill(process.processIdentifier, SIGSTOP)
            let noted = Self.renderNotes(in: cache)
            if noted.count >= files { return noted }
            kill(process.processIdentifier, SIGCONT)
        }
        return []
    }

    /// The names of the files the journals under `cache` note with a version: renders (the
    /// walk's reads of headers are noted without one).
    private static func renderNotes(in cache: String) -> [String] {
        let directory = cache + "/decoding"
        let journals = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return journals.flatMap { name -> [String] in
            guard let bytes = FileManager.default.contents(atPath: directory + "/" + name).map(Array.init) else {
                return []
            }
            return stride(from: 0, to: bytes.count, by: 29 + 2 * Int(PATH_MAX)).compactMap { slot in
                Self.noteName(Array(bytes[slot..<min(bytes.count, slot + 29 + 2 * Int(PATH_MAX))]))
            }
        }
    }

    /// The file name of a journal slot holding a render's note: "TDJ1", the root's and the
    /// path's lengths, 1 for a version, the version, the root, the path.
    private static func noteName(_ slot: [UInt8]) -> String? {
        func count(at offset: Int) -> Int { slot[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) } }
        guard slot.count >= 29, slot.starts(with: [0x54, 0x44, 0x4A, 0x31]), slot[12] == 1 else { return nil }
        let root = count(at: 4), path = count(at: 8)
        guard slot.count >= 29 + root + path else { return nil }
        return String(decoding: slot[(29 + root)..<(29 + root + path)], as: UTF8.self)
    }

    /// Ctrl-C once every file of the library was taken up, while renders are still under way:
    /// the run is interrupted all the same (exit status 130), whatever was left to render. The
    /// process is stopped while its journal is read, so that Ctrl-C comes while a render is
    /// under way.
    @Test func ctrlCAfterTheWalkEndedExits130() throws {
        let photo = try SyntheticImage(width: 4000, height: 3000).encoded(as: .png)
        for index in 0..<10 { try folder.write(photo, to: "library/p\(index).png") }
        let output = Pipe()
        let process = try ThumbsProcess.start(
            ["warm", library, "--cache", cache, "--json", "--config", try inProcess()], output: output)
        // A render under way: the walk of one folder of ten ended before any render began.
        let interrupted = !stopWhileRendering(process, files: 1).isEmpty
        if interrupted { kill(process.processIdentifier, SIGINT) }
        kill(process.processIdentifier, SIGCONT)
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        try #require(interrupted, "the warm never had a render under way")
        #expect(process.terminationStatus == 130, "\(text.suffix(400))")
        #expect(text.contains(#""event":"interrupted""#))
    }
}
