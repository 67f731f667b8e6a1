import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// Real processes on one cache: concurrent writer and reader, and a writer killed mid-batch.
@Suite struct StoreProcessTests {
    let folder = TemporaryFolder()
    var cache: String { folder.path + "/cache" }

    @Test func writerAndReaderProcessesShareOneCache() async throws {
        // A 1 MiB map makes the writer grow it while the reader runs: the reader must adopt it.
        let cache = cache
        async let writer = Task.detached {
            try ThumbsProcess.run(["write", cache, "20", "20", "\(1 << 20)"], executable: "thumbs-store-worker")
        }.value
        try await Task.sleep(for: .milliseconds(50))
        let reader = try ThumbsProcess.run(
            ["read", cache, "20", "20", "\(1 << 20)"], executable: "thumbs-store-worker")
        let written = try await writer
        #expect(written.status == 0, "\(written.standardError)")
        #expect(reader.status == 0, "\(reader.standardError)")
        #expect(reader.standardOutput.contains("read 400 entries"))
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: cache))
        #expect(try store.verify().isConsistent)
        #expect(try store.statistics().mapSize.bytes > 1 << 20)
    }

    @Test func readerSlotsOfKilledProcessesAreFreedAtOpen() async throws {
        // LMDB resets its reader table when the first process opens a cache, so a stale slot
        // matters (and is found) only while another process keeps the cache open: here a writer.
        let writerOutput = Pipe()
        let writer = try worker(["write", cache, "100000", "40"], output: writerOutput)
        defer {
            kill(writer.processIdentifier, SIGKILL)
            writer.waitUntilExit()
        }
        waitFor("committed", from: writerOutput)  // the writer holds the cache open
        let readerOutput = Pipe()
        let reader = try worker(["read", cache, "100000", "40"], output: readerOutput)
        waitFor("reading", from: readerOutput)  // the reader holds a slot
        kill(reader.processIdentifier, SIGKILL)
        reader.waitUntilExit()
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: cache))
        #expect(store.environment.staleReadersCleared >= 1)
    }

    @Test func theStoreLinksNoCodec() throws {
        // The worker opens a cache and reads from it, as the command does: of the files it has
        // mapped, the cache and LMDB are two, and no decoding library is among the others.
        let output = Pipe()
        let reader = try worker(["read", cache, "1", "1"], output: output)
        defer {
            kill(reader.processIdentifier, SIGKILL)
            reader.waitUntilExit()
        }
        waitFor("reading", from: output)
        // Read to its end: a file of /proc has no size for a read of the whole to go by.
        let maps = String(
            decoding: try FileHandle(forReadingAtPath: "/proc/\(reader.processIdentifier)/maps")?.readToEnd() ?? Data(),
            as: UTF8.self)
        let mapped = Set(
            maps.split(separator: "\n").compactMap { line in
                line.firstIndex(of: "/").flatMap { line[$0...].split(separator: "/").last.map(String.init) }
            })
        #expect(mapped.contains("data.mdb") && mapped.contains { $0.hasPrefix("liblmdb") }, "\(mapped.sorted())")
        for codec in ["libvips", "libavcodec", "libavformat", "libraw", "libheif"] {
            #expect(!mapped.contains { $0.hasPrefix(codec) }, "\(codec) is mapped: \(mapped.sorted())")
        }
    }

    @Test func killedWriterLosesNothingCommitted() throws {
        let process = Process()
        process.executableURL = ThumbsProcess.executable("thumbs-store-worker")
        process.arguments = ["write", cache, "100000", "40"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var lastCommitted = -1
        var text = ""
        let deadline = Date().addingTimeInterval(60)
        while lastCommitted < 10 && Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            let lines = text.split(separator: "\n")
            if let last = lines.last(where: { $0.hasPrefix("committed ") }), let batch = Int(last.dropFirst(10)) {
                lastCommitted = batch
            }
        }
        // Mid-batch: it is writing the next one by now.
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(lastCommitted >= 10)

        let check = try ThumbsProcess.run(
            ["check", cache, "\(lastCommitted + 1)", "40"], executable: "thumbs-store-worker")
        #expect(check.status == 0, "\(check.standardError)")
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: cache))
        let verification = try store.verify()
        #expect(verification.isConsistent, "\(verification.problems)")
        #expect(verification.thumbnails >= (lastCommitted + 1) * 40)
    }

    /// Starts `thumbs-store-worker` with `arguments`, its output into `output`.
    private func worker(_ arguments: [String], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = ThumbsProcess.executable("thumbs-store-worker")
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Returns once the worker has said `word` on `pipe`, or has ended.
    private func waitFor(_ word: String, from pipe: Pipe) {
        var said = ""
        while !said.contains(word) {
            let chunk = pipe.fileHandleForReading.availableData
            if chunk.isEmpty { return }
            said += String(decoding: chunk, as: UTF8.self)
        }
    }
}
