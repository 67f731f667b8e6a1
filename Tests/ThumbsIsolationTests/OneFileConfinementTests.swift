import Foundation
import Glibc
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsIsolation
import ThumbsRendering
import ThumbsSamples
import ThumbsTestSupport

/// What a one-file command's decoder taken over by a hostile file can do: `thumbs-hostile-worker
/// --one-file` renders one file in its own process through `ConfinedRender`, as `thumbs thumbnail`
/// does, with the decoder of the worker attacks (WorkerConfinementTests). Each attack ends that
/// process with its file's line and status 1, and leaves nothing at the output or beside it.
@Suite(.voidedBySanitizer("the process takes no seccomp filter, Landlock or limit"))
struct OneFileConfinementTests {
    let folder = TemporaryFolder("thumbs-one-file")

    struct Run {
        var status: Int32
        var output: String
        var errors: String
    }

    /// `name` (a photo) rendered by the hostile decoder in a process of its own, to out/thumb.jpg.
    func render(_ name: String) throws -> Run {
        try folder.write(SyntheticImage(width: 640, height: 480).encoded(as: .jpeg), to: "in/" + name)
        try folder.write([], to: "out/.keep")
        let program = try #require(IsolatedThumbnailRenderer.defaultWorkerExecutable)
            .removingLastComponent().appending("thumbs-hostile-worker")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.string)
        process.arguments = ["--one-file", folder.path + "/in", name, folder.path + "/out/thumb.jpg"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        // A death by a signal is its number.
        return Run(
            status: process.terminationStatus, output: String(decoding: printed, as: UTF8.self),
            errors: String(decoding: said, as: UTF8.self))
    }

    var outputFolder: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path + "/out")) ?? []).sorted()
    }

    @Test func aPhotoRendersConfinedAndIsRenamedOntoTheOutput() throws {
        let run = try render("photo.jpg")
        #expect(run.status == 0, "\(run.errors)")
        let offered = WorkerConfinement.available.names.joined(separator: ", ")
        #expect(run.output.contains("confined by \(offered)"), "\(run.output)")
        #expect(run.output.contains("128x96 jpeg"), "\(run.output)")
        #expect(outputFolder == [".keep", "thumb.jpg"])
    }

    @Test func openingAPathIsRefused() throws {
        let run = try render("open-a-path.jpg")
        #expect(run.status == 1)
        #expect(run.errors == "open-a-path.jpg: unreadable: open: Permission denied\n", "\(run.errors)")
        #expect(outputFolder == [".keep"])
    }

    /// The calls that kill a worker are trapped here, never made: the process reports its file.
    @Test(arguments: ["make-a-socket.jpg", "answer-garbage.jpg"])
    func aSocketOrAForgedAnswerEndsTheProcessAsCrashed(attack: String) throws {
        let run = try render(attack)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("\(attack): crashed: "), "\(run.errors)")
        #expect(!run.errors.contains("made socket"))
        #expect(outputFolder == [".keep"])
    }

    /// `system` blocks every signal before it forks (posix_spawn), and a trapped call with its
    /// signal blocked kills the process: no program runs, nothing is written at the output, and
    /// the process dies of SIGSYS without its line (its unfinished file stays beside the output).
    @Test func aProgramIsNotRun() throws {
        let run = try render("run-a-program.jpg")
        #expect(run.status == SIGSYS || run.errors.hasPrefix("run-a-program.jpg: crashed: "), "\(run.errors)")
        #expect(!run.errors.contains("ran a program"))
        #expect(!outputFolder.contains("thumb.jpg"))
    }

    @Test func aDecodePastTheMemoryLimitFailsAsTooMuchMemory() throws {
        let run = try render("take-all-memory.jpg")
        #expect(run.status == 1)
        // After the Swift runtime's own line on the allocation it was refused.
        let last = run.errors.split(separator: "\n").last ?? ""
        #expect(last.hasPrefix("take-all-memory.jpg: too-much-memory: "), "\(run.errors)")
        #expect(outputFolder == [".keep"])
    }
}
