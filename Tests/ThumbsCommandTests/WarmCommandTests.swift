import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs warm` as a process: killed or interrupted mid-run, then resumed.
@Suite struct WarmCommandTests {
    let folder = TemporaryFolder()
    var library: String { folder.path + "/library" }
    var cache: String { folder.path + "/cache" }

    private func makeLibrary(_ count: Int) throws {
        let photo = try SyntheticImage(width: 1600, height: 1200).encoded(as: .jpeg)
        for index in 0..<count { try folder.write(photo, to: "library/d\(index % 5)/p\(index).jpg") }
    }

    /// Starts `thumbs warm --json`, waits for a progress line with at least `done` photos, then
    /// sends `signal`. Returns the exit status and the output.
    private func interrupt(after done: Int, with signal: Int32) throws -> (status: Int32, output: String) {
        let output = Pipe()
        let process = try ThumbsProcess.start(["warm", library, "--cache", cache, "--json"], output: output)
        var text = ""
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
            if Self.lastDone(text) >= done { break }
        }
        kill(process.processIdentifier, signal)
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// `done` of the last complete progress line.
    private static func lastDone(_ text: String) -> Int {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        lines.removeLast()  // what follows the last newline is not a complete line yet
        guard let last = lines.last(where: { $0.contains("\"done\"") }),
            let object = try? JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any]
        else { return 0 }
        return object["done"] as? Int ?? 0
    }

    private func summary() throws -> [String: Any] {
        let outcome = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let last = try #require(outcome.standardOutput.split(separator: "\n").last)
        return try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
    }

    /// A settled damaged photo is a warning line and a partial count, not a failure: the exit
    /// status stays 0.
    @Test func aPartialRenderIsAWarningNotAFailure() throws {
        try makeLibrary(2)
        let whole = try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg)
        let cut = try folder.write(Array(whole.prefix(whole.count / 2)), to: "library/cut.jpg")
        try FileAge.settle(cut)
        let outcome = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let lines = outcome.standardOutput.split(separator: "\n")
        let partial = lines.filter { $0.contains("\"event\":\"partial\"") }
        #expect(partial.count == 1 && partial.first?.contains(#"library/cut.jpg""#) == true, "\(partial)")
        let last = try #require(lines.last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(summary["rendered"] as? Int == 3 && summary["partial"] as? Int == 1 && summary["failed"] as? Int == 0)
    }

    /// A name that is not UTF-8 is warmed like any other and reported with its odd bytes
    /// escaped; a broken one gets its line.
    @Test func namesThatAreNotUTF8AreWarmedAndShownEscaped() throws {
        let photo = try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg)
        try folder.write(photo, to: "library/plain.jpg")
        try folder.write(
            photo,
            toRawName: Array("library/f".utf8) + [0xF6] + Array("rmig/caf".utf8) + [0xE9, 0x2E, 0x6A, 0x70, 0x67])
        try folder.write(Array(photo.prefix(300)), toRawName: Array("library/br".utf8) + [0xFF] + Array("ken.jpg".utf8))
        let warm = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"])
        #expect(warm.status == 1, "one file failed")
        #expect(warm.standardOutput.contains(#"br\\xFFken.jpg"#), "JSON shows the escaped name: \(warm.standardOutput)")
        let last = String(warm.standardOutput.split(separator: "\n").last ?? "")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        #expect(first["rendered"] as? Int == 2 && first["failed"] as? Int == 1, "\(first)")
        let again = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"]).standardOutput
        // Cut short moments ago, the broken file may still be being copied in: its failure is not
        // remembered, and the next warm tries it again.
        #expect(again.contains(#""fresh":2"#) && again.contains(#""failed":1"#), "\(again)")
        let text = try ThumbsProcess.run(["render", library, "-o", folder.path + "/out"])
        #expect(text.standardOutput.contains(#"/br\xFFken.jpg: truncated"#), "\(text.standardOutput)")
    }

    private static let heifEncoder = "/usr/bin/heif-enc"

    /// AVIFs whose coded picture is damaged fail with typed lines, and what their decoder says
    /// ("Error parsing OBU data") never reaches stderr: in `--json` mode it holds JSON lines and
    /// the command's own closing line only. Each failure's message is the reason after its kind
    /// ("KIND: reason"), never the kind again.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: heifEncoder), "heif-enc is absent"))
    func damagedAVIFsLeaveNothingOfTheDecoderOnStderr() throws {
        let png = try folder.write(try SyntheticImage(width: 640, height: 480).encoded(as: .png), to: "source.png")
        let avif = folder.path + "/source.avif"
        let encoded = try ThumbsProcess.run(["-A", "-o", avif, png], executablePath: Self.heifEncoder)
        try #require(encoded.status == 0, "\(encoded.standardError)")
        let whole = Array(try Data(contentsOf: URL(fileURLWithPath: avif)))
        let mediaData = try #require(whole.indices.dropLast(4).first { whole[$0..<$0 + 4].elementsEqual("mdat".utf8) })
        // Two bytes changed at each of the first 24 offsets of the coded picture: its OBU headers
        // and sequence header, which dav1d parses first.
        for offset in 0..<24 {
            var damaged = whole
            damaged[mediaData + 4 + offset] ^= 0xA5
            damaged[mediaData + 5 + offset] ^= 0x5A
            try folder.write(damaged, to: "library/damaged\(offset).avif")
        }
        let warm = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"])
        let foreign = warm.standardError.split(separator: "\n").filter { line in
            !line.hasPrefix("thumbs: ") && (try? JSONSerialization.jsonObject(with: Data(line.utf8))) == nil
        }
        #expect(foreign.isEmpty, "\(foreign.prefix(5))")
        let failures = warm.standardOutput.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }.filter { $0["event"] as? String == "failed" }
        #expect(warm.status == 1 && failures.count >= 6, "\(warm.standardError)")
        for failure in failures {
            let kind = try #require(failure["kind"] as? String), message = try #require(failure["message"] as? String)
            #expect(!message.hasPrefix(String(kind.prefix { $0 != "-" })) && !message.contains(kind), "\(failure)")
        }
    }

    @Test func killedMidRunResumesWithoutRedoingWork() throws {
        try makeLibrary(120)
        let (status, output) = try interrupt(after: 70, with: SIGKILL)
        #expect(status == SIGKILL && Self.lastDone(output) < 120, "killed mid-run")
        let resumed = try summary()
        let fresh = resumed["fresh"] as? Int ?? 0, rendered = resumed["rendered"] as? Int ?? 0
        #expect(fresh + rendered == 120)
        #expect(fresh >= 32, "committed batches survived the kill (\(fresh) fresh)")
        #expect(rendered < 120)
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: cache))
        #expect(try store.verify().isConsistent)
        #expect(try store.statistics().thumbnails == 240)
    }

    @Test func ctrlCCommitsWhatIsDoneAndExits130() throws {
        try makeLibrary(120)
        let (status, output) = try interrupt(after: 40, with: SIGINT)
        #expect(status == 130)
        #expect(output.contains("\"event\":\"interrupted\""))
        #expect(Self.lastDone(output) < 120, "interrupted mid-run")
        let renderedBefore = Self.lastDone(output)
        let resumed = try summary()
        #expect((resumed["fresh"] as? Int ?? 0) >= renderedBefore, "everything done before Ctrl-C was committed")
        #expect((resumed["fresh"] as? Int ?? 0) + (resumed["rendered"] as? Int ?? 0) == 120)
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func sharedPhotosWarmWithTypedFailuresAndExitOne() throws {
        let outcome = try ThumbsProcess.run(["warm", SharedPhotos.root.path, "--cache", cache, "--json"])
        #expect(outcome.status == 1)
        let last = try #require(outcome.standardOutput.split(separator: "\n").last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        // The 73 photos and the two files named like photos that are none (one empty); the
        // three damaged photos whose decode ends early are rendered as far as they decode.
        #expect(summary["rendered"] as? Int == 69 && summary["failed"] as? Int == 6 && summary["partial"] as? Int == 3)
        let lines = outcome.standardOutput.split(separator: "\n")
        let failures = lines.filter { $0.contains("\"event\":\"failed\"") }
        #expect(failures.count == 6, "each failure is reported with its path and kind")
        let partial = lines.filter { $0.contains("\"event\":\"partial\"") }
        #expect(partial.count == 3, "a warning, not a failure")
        #expect(partial.contains { $0.contains("IMG_3704_truncated.jpg") })
        #expect(failures.contains { $0.contains("_truncated.heif") && $0.contains("\"kind\":\"truncated\"") })
        #expect(failures.contains { $0.contains("broken/empty.jpg") && $0.contains("\"kind\":\"empty-file\"") })
        #expect(
            failures.contains { $0.contains("not_an_image.jpg") && $0.contains("\"kind\":\"unsupported-format\"") })
        let again = try ThumbsProcess.run(["warm", SharedPhotos.root.path, "--cache", cache, "--json"])
        #expect(again.status == 1, "known failures are skipped, not rendered again, and still failures")
        #expect(again.standardOutput.contains("\"fresh\":69") && again.standardOutput.contains("\"skippedFailures\":4"))
        #expect(again.standardOutput.contains("\"rendered\":0"))
    }

    /// Photos, videos and RAW files in one warm: the photos' counts are those of a warm of
    /// ../shared/photos alone, and each video and RAW file gets its renditions or a typed failure.
    @Test(.enabled(if: SharedPhotos.isPresent && SharedMedia.isPresent, "../shared/photos or ../shared/media absent"))
    func sharedPhotosAndMediaWarmTogether() throws {
        let roots = [SharedPhotos.root.path, SharedMedia.root.path]
        let outcome = try ThumbsProcess.run(["warm"] + roots + ["--cache", cache, "--json"])
        #expect(outcome.status == 1)
        let lines = outcome.standardOutput.split(separator: "\n")
        let last = try #require(lines.last)
        let summary = try #require(try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any])
        // ../shared/media: 6 videos and 2 RAW files rendered; the half-copied iPhone clip, the
        // GoPro GPR and the JPEG XL DNG fail.
        #expect(summary["found"] as? Int == 75 + 11)
        #expect(summary["rendered"] as? Int == 69 + 8 && summary["failed"] as? Int == 6 + 3)
        let failures = lines.filter { $0.contains("\"event\":\"failed\"") && $0.contains("/media/") }
        #expect(failures.count == 3)
        #expect(failures.contains { $0.contains("IMG_3589_truncated.mov") && $0.contains("\"kind\":\"truncated\"") })
        #expect(failures.contains { $0.contains(".GPR") && $0.contains("\"kind\":\"unsupported-format\"") })
        #expect(failures.contains { $0.contains("overexposed.dng") && $0.contains("\"kind\":\"unsupported-format\"") })
        // Every rendition of every rendered asset is in the cache: nothing is left to render.
        let again = try ThumbsProcess.run(["warm"] + roots + ["--cache", cache, "--json"])
        #expect(again.status == 1 && again.standardOutput.contains("\"fresh\":77"))
        #expect(again.standardOutput.contains("\"skippedFailures\":7"))
        let verify = try ThumbsProcess.run(["verify", "--cache", cache])
        #expect(verify.status == 0 && verify.standardOutput.contains("consistent"))
    }

    /// A library of RAW files alone makes its first libvips calls on the render threads, after
    /// LibRaw decoded: libvips must be started before them. Started late, by whichever thread
    /// made a placeholder first, one warm in six aborted in libvips' type registry; the race
    /// needs several tries to show, so the warm runs a dozen times.
    @Test(.enabled(if: GeneratedMedia.python != nil, GeneratedMedia.dngSkipReason))
    func aLibraryOfRawFilesAloneStartsLibvipsFirst() throws {
        let first = library + "/r0.dng"
        try FileManager.default.createDirectory(atPath: library, withIntermediateDirectories: true)
        try GeneratedMedia.dng(at: first, ["--raw", "640x480", "--preview", "1024x768:jpeg", "--orientation", "1"])
        for index in 1..<24 { try FileManager.default.linkItem(atPath: first, toPath: library + "/r\(index).dng") }
        for run in 0..<12 {
            try? FileManager.default.removeItem(atPath: cache)
            let outcome = try ThumbsProcess.run(["warm", library, "--cache", cache, "--json"])
            try #require(outcome.status == 0, "run \(run): \(outcome.standardError.prefix(300))")
            #expect(outcome.standardOutput.contains("\"rendered\":24"))
        }
    }
}
