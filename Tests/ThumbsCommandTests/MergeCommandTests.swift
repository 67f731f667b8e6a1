import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs warm --shard` and `thumbs merge` as processes: a library warmed in shards and merged
/// is the cache of one warm, and a merge killed at any moment leaves its destination whole.
@Suite struct MergeCommandTests {
    let folder = TemporaryFolder()
    var library: String { folder.path + "/library" }

    private func makeLibrary(_ count: Int) throws {
        for index in 0..<count {
            let photo = try SyntheticImage(width: 400 + index, height: 300).encoded(as: .jpeg)
            try folder.write(photo, to: "library/d\(index % 3)/p\(index).jpg")
        }
    }

    private static func lastLine(_ outcome: ThumbsProcess.Outcome) throws -> [String: Any] {
        let last = try #require(outcome.standardOutput.split(separator: "\n").last, "\(outcome.standardError)")
        return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    }

    @Test func shardsMergedAreTheCacheOfOneWarm() async throws {
        try makeLibrary(30)
        var found = 0
        for index in 0..<3 {
            // As a Kubernetes Indexed Job runs it: one command line, the index from the environment.
            let warm = try ThumbsProcess.run(
                ["warm", library, "--shards", "3", "--cache", folder.path + "/shard-{shard}", "--json"],
                environment: ["JOB_COMPLETION_INDEX": "\(index)"])
            #expect(warm.status == 0, "\(warm.standardError)")
            let summary = try Self.lastLine(warm)
            #expect(summary["shard"] as? Int == index && summary["shards"] as? Int == 3, "\(summary)")
            found += summary["found"] as? Int ?? 0
        }
        #expect(found == 30, "the shards together are the library")
        let sources = (0..<3).map { folder.path + "/shard-\($0)" }
        let merge = try ThumbsProcess.run(["merge", folder.path + "/merged"] + sources + ["--json"])
        #expect(merge.status == 0, "\(merge.standardError)")
        let verify = try ThumbsProcess.run(["verify", "--cache", folder.path + "/merged"])
        #expect(verify.status == 0, "\(verify.standardOutput)\(verify.standardError)")
        let single = try ThumbsProcess.run(["warm", library, "--cache", folder.path + "/single", "--json"])
        #expect(try Self.lastLine(single)["rendered"] as? Int == 30)
        let again = try Self.lastLine(
            try ThumbsProcess.run(["warm", library, "--cache", folder.path + "/merged", "--json"]))
        #expect(again["rendered"] as? Int == 0 && again["fresh"] as? Int == 30, "\(again)")

        // Same keys, same bytes as the single warm.
        let merged = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/merged"))
        let one = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/single"))
        #expect(try merged.statistics().thumbnails == (try one.statistics().thumbnails))
        let renderer = ThumbnailRenderer(configuration: ImagingConfiguration(workers: 1))
        let assets = try await PhotoLibrary(roots: [library], renderer: renderer, store: nil).allAssets().assets
        for asset in assets {
            for rendition in ThumbsConfiguration().renditions {
                let key = ThumbnailKey(assetID: asset.id, fingerprint: asset.fingerprint, rendition: rendition.spec)
                let bytes = try #require(try merged.thumbnail(for: key)).thumbnail.bytes
                #expect(bytes == (try one.thumbnail(for: key))?.thumbnail.bytes, "\(asset.relativePath)")
            }
        }
    }

    /// A Slurm array task's index counts from the array's first; what does not name one shard is
    /// a usage error, before anything is read.
    @Test func theShardComesFromTheJobArrayOrIsAUsageError() throws {
        try makeLibrary(4)
        let cache = folder.path + "/shard-{shard}"
        let slurm = ["SLURM_ARRAY_TASK_ID": "5", "SLURM_ARRAY_TASK_MIN": "4", "SLURM_ARRAY_TASK_COUNT": "2"]
        let task = try ThumbsProcess.run(
            ["warm", library, "--shards", "2", "--cache", cache, "--json"], environment: slurm)
        let taskSummary = try Self.lastLine(task)
        #expect(task.status == 0 && taskSummary["shard"] as? Int == 1, "\(task.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/shard-1/data.mdb"))
        let mismatch = try ThumbsProcess.run(
            ["warm", library, "--shards", "3", "--cache", cache], environment: slurm)
        #expect(mismatch.status == 2 && mismatch.standardError.contains("2 tasks"), "\(mismatch.standardError)")
        let noIndex = try ThumbsProcess.run(["warm", library, "--shards", "3", "--cache", cache])
        #expect(noIndex.status == 2 && noIndex.standardError.contains("--shard K/3"), "\(noIndex.standardError)")
        let noShard = try ThumbsProcess.run(["warm", library, "--cache", cache])
        #expect(noShard.status == 2 && noShard.standardError.contains("{shard}"), "\(noShard.standardError)")
        for bad in ["3/3", "1/2/3", "x"] {
            #expect(try ThumbsProcess.run(["warm", library, "--shard", bad, "--cache", cache]).status == 2, "\(bad)")
        }
    }

    /// Killed as soon as its scratch file appears, then a quarter, half and three quarters of
    /// the way through writing it, a merge leaves the destination as it was, consistent; the next
    /// open removes the scratch, and the next merge completes it. The kills follow the scratch
    /// folder rather than a clock, so a slow machine moves them without missing the write.
    @Test func aKilledMergeLeavesTheDestinationAsItWas() async throws {
        let thumbnail = Thumbnail(
            bytes: (0..<16_000).map { UInt8(truncatingIfNeeded: $0 &* 7) },
            pixelSize: PixelSize(width: 256, height: 256),
            format: .jpeg)
        let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
        func fill(_ name: String, _ range: Range<Int>) async throws {
            let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/" + name))
            for start in stride(from: range.lowerBound, to: range.upperBound, by: 500) {
                try await store.putThumbnails(
                    (start..<min(start + 500, range.upperBound)).map { index in
                        .init(
                            key: ThumbnailKey(
                                assetID: "asset\(index)",
                                fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: 1), rendition: spec),
                            thumbnail: thumbnail)
                    })
            }
        }
        try await fill("dest", 0..<50)
        try await fill("a", 50..<2050)
        try await fill("b", 2050..<4050)
        let sources = [folder.path + "/a", folder.path + "/b"]

        func startMerge(into destination: String) throws -> Process {
            let process = Process()
            process.executableURL = ThumbsProcess.executable()
            process.arguments = ["merge", destination] + sources
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        /// Waits until `process` has created its scratch folder in `destination` (false if it
        /// ended first); given a `delay`, waits that many seconds more and kills it. Watched and
        /// killed from a thread of its own: a task on the cooperative pool, busy with the other
        /// suites, can wake after a whole merge is over.
        func waitForScratch(
            in destination: String, of process: Process, thenKillingAfter delay: Double? = nil
        ) async -> Bool {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    var seen = false
                    while !seen && process.isRunning {
                        let names = (try? FileManager.default.contentsOfDirectory(atPath: destination)) ?? []
                        seen = names.contains { $0.hasPrefix("merging-") }
                        if !seen { usleep(200) }
                    }
                    if let delay {
                        if seen { usleep(UInt32(delay * 1_000_000)) }
                        kill(process.processIdentifier, SIGKILL)
                    }
                    continuation.resume(returning: seen)
                }
            }
        }
        // The write's duration, from a first merge: from its scratch folder's appearance, or
        // from its start if it was over before the folder was seen.
        var writeStarted = Date()
        let timed = try startMerge(into: folder.path + "/timed")
        if await waitForScratch(in: folder.path + "/timed", of: timed) { writeStarted = Date() }
        timed.waitUntilExit()
        let writing = Date().timeIntervalSince(writeStarted)
        #expect(timed.terminationStatus == 0)

        func count() throws -> Int {
            let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/dest"))
            #expect(try store.verify().isConsistent)
            return try store.statistics().thumbnails
        }
        var killedMidMerge = 0
        for quarter in 0...3 {
            let process = try startMerge(into: folder.path + "/dest")
            _ = await waitForScratch(
                in: folder.path + "/dest", of: process, thenKillingAfter: writing * Double(quarter) / 4)
            process.waitUntilExit()
            let contents = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/dest")
            if contents.contains(where: { $0.hasPrefix("merging-") }) { killedMidMerge += 1 }
            let thumbnails = try count()
            #expect(thumbnails == 50 || thumbnails == 4050, "killed at \(quarter)/4: \(thumbnails) thumbnails")
            if thumbnails == 4050 { break }
        }
        #expect(killedMidMerge >= 1, "at least one kill came while the merge was writing")
        #expect(try ThumbsProcess.run(["merge", folder.path + "/dest"] + sources).status == 0)
        #expect(try count() == 4050)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path + "/dest")
        #expect(!leftovers.contains { $0.hasPrefix("merging-") }, "\(leftovers)")
    }

    /// A damaged source is named as the one to leave out or move aside; the healthy destination,
    /// which a merge leaves as it was, is never the cache the message tells to reset.
    @Test func aDamagedSourceIsNamedAndTheDestinationIsNotBlamed() throws {
        try makeLibrary(3)
        let destination = folder.path + "/dest", flipped = folder.path + "/flipped", zero = folder.path + "/zero"
        for cache in [destination, flipped] {
            #expect(try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"]).status == 0)
        }
        // Four bytes of the first meta page's magic: LMDB refuses the file, though the second is whole.
        let handle = try #require(FileHandle(forUpdatingAtPath: flipped + "/data.mdb"))
        try handle.seek(toOffset: 16)
        try handle.write(contentsOf: Data([0x21, 0x43, 0x65, 0x87]))
        try handle.close()
        try FileManager.default.createDirectory(atPath: zero, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: zero + "/data.mdb", withDestinationPath: "/dev/zero")

        for source in [flipped, zero] {
            let merge = try ThumbsProcess.run(["merge", destination, source], killedAfter: .seconds(120))
            let message = merge.standardError
            #expect(merge.status == 3, "\(source): \(message)")
            #expect(message.contains("source cache \(source) is damaged"), "\(message)")
            #expect(message.contains("thumbs reset --cache \(source)"), "\(message)")
            #expect(!message.contains("cache \(destination)"), "\(message)")
        }
        let missing = try ThumbsProcess.run(["merge", destination, folder.path + "/none"])
        #expect(missing.status == 3 && missing.standardError.contains("source cache \(folder.path)/none"))
        #expect(!missing.standardError.contains("(0)"), "no result code where there is none")
        let verify = try ThumbsProcess.run(["verify", "--cache", destination])
        #expect(verify.status == 0, "the destination is untouched: \(verify.standardOutput)")
    }
}
