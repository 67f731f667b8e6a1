import Foundation
import Glibc
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsIsolation
import ThumbsRendering
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// What a worker taken over by a hostile file can do: `thumbs-hostile-worker` is Thumbs' own
/// worker, confined as every worker is, whose decoder does what an exploit would for files
/// named after an attack. Each attack costs its file; the next file renders on a new worker.
@Suite struct WorkerConfinementTests {
    let folder = TemporaryFolder("thumbs-confinement")
    let spec = RenditionSpec(size: PixelSize(width: 128, height: 128))

    func hostileRenderer() throws -> IsolatedThumbnailRenderer {
        let program = try #require(IsolatedThumbnailRenderer.defaultWorkerExecutable)
            .removingLastComponent().appending("thumbs-hostile-worker")
        var configuration = ImagingConfiguration(workers: 1)
        configuration.decodeMemoryBudget = ImagingConfiguration.minimumDecodeMemoryBudget
        return try IsolatedThumbnailRenderer(configuration: configuration, workerExecutable: program)
    }

    func file(_ name: String) throws -> ImageLocation {
        try folder.write(SyntheticImage(width: 640, height: 480).encoded(as: .jpeg), to: name)
        return ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
    }

    func render(_ name: String, with renderer: IsolatedThumbnailRenderer) async throws -> Thumbnail {
        try await renderer.render(try file(name), specs: [spec], ticket: PriorityTicket(.interactive))[0]
    }

    @Test(.voidedBySanitizer("a worker takes no seccomp filter or Landlock"))
    func openingAPathIsRefused() async throws {
        let renderer = try hostileRenderer()
        await #expect(throws: ImagingError.unreadable("open: Permission denied")) {
            try await render("open-a-path.jpg", with: renderer)
        }
        let worker = renderer.workerProcessIDs
        _ = try await render("photo.jpg", with: renderer)
        #expect(renderer.workerProcessIDs == worker, "a refused call is no death")
    }

    @Test(
        .voidedBySanitizer("a worker takes no seccomp filter or Landlock"),
        arguments: ["make-a-socket.jpg", "run-a-program.jpg"])
    func aSocketOrAProgramCostsTheFileAndTheWorker(attack: String) async throws {
        try await expectTheWorkerLost(to: attack)
    }

    /// The parent's own defence: it holds under a sanitizer too.
    @Test(arguments: ["answer-garbage.jpg", "answer-too-much.jpg"])
    func aForgedAnswerCostsTheFileAndTheWorker(attack: String) async throws {
        try await expectTheWorkerLost(to: attack)
    }

    private func expectTheWorkerLost(to attack: String) async throws {
        let renderer = try hostileRenderer()
        _ = try await render("photo.jpg", with: renderer)
        let worker = renderer.workerProcessIDs
        await #expect(throws: ImagingError.crashed) { try await render(attack, with: renderer) }
        _ = try await render("photo.jpg", with: renderer)
        #expect(renderer.workerProcessIDs.count == 1 && renderer.workerProcessIDs != worker)
    }

    @Test(.voidedBySanitizer("a worker has no address-space limit"))
    func aDecodePastTheMemoryLimitFailsAsTooMuchMemory() async throws {
        let renderer = try hostileRenderer()
        _ = try await render("photo.jpg", with: renderer)
        let worker = renderer.workerProcessIDs
        await #expect {
            try await render("take-all-memory.jpg", with: renderer)
        } throws: { error in
            (error as? ImagingError)?.kind == .tooMuchMemory
        }
        _ = try await render("photo.jpg", with: renderer)
        #expect(renderer.workerProcessIDs.count == 1 && renderer.workerProcessIDs != worker)
    }

    @Test func theKernelsMeasuresAreNamed() {
        let available = WorkerConfinement.available
        #expect(available.names.contains("no-new-privs"))
        #expect(available.measures.contains(.seccomp) == available.names.contains("seccomp"))
        #expect(available.description == available.names.joined(separator: ", "))
    }
}
