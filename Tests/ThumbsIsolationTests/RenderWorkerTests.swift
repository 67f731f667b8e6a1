import Foundation
import Glibc
import SystemPackage
import Testing
import ThumbsCore
import ThumbsImaging
import ThumbsIsolation
import ThumbsCoreTestSupport
import ThumbsRendering
import ThumbsTestSupport

/// The worker protocol spoken directly to a real `thumbs-render-worker`: what a renderer that
/// is not Thumbs' own (or a bug in it) could ask, and what the worker makes of it.
@Suite struct RenderWorkerTests {
    let settings = WorkerSettings(sharing: ImagingConfiguration(workers: 1))

    func startedWorker() throws -> RenderWorker {
        let program = try #require(IsolatedThumbnailRenderer.defaultWorkerExecutable)
        let worker = try RenderWorker.start(executable: program, settings: settings)
        _ = try worker.greeting(within: .seconds(60))
        return worker
    }

    @Test func aPathInPlaceOfAFileIsNotOpened() throws {
        let worker = try startedWorker()
        defer { worker.stop() }
        let request = WorkerRequest(
            work: .render(specs: [RenditionSpec(size: PixelSize(width: 64, height: 64))]), path: "/etc/passwd",
            expectedFingerprint: nil)
        let reply = try worker.perform(request, file: -1, limit: .seconds(60), largestReply: 1 << 20)
        #expect(reply == .failure(.unreadable("no file came with the request")))
    }

    @Test func aFileThatIsNotAPhotoIsTheFilesFailure() throws {
        let worker = try startedWorker()
        defer { worker.stop() }
        let passwd = open("/etc/passwd", O_RDONLY | O_CLOEXEC)
        defer { close(passwd) }
        let request = WorkerRequest(work: .inspect, path: "passwd", expectedFingerprint: nil)
        guard
            case .inspection(let inspection) = try worker.perform(
                request, file: passwd, limit: .seconds(60), largestReply: 1 << 20)
        else {
            Issue.record("no inspection")
            return
        }
        #expect(inspection.mediaType == .unsupported && inspection.properties == nil)
    }

    /// A worker started without FFmpeg (its settings name only libvips) cannot open it once
    /// confined, and says so rather than blaming a missing package.
    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        .voidedBySanitizer("a worker takes no Landlock"))
    func aLibraryNotOpenedBeforeConfinementFailsItsFiles() throws {
        let folder = TemporaryFolder()
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p",
            folder.path + "/clip.mp4",
        ])
        let worker = try startedWorker()
        defer { worker.stop() }
        let clip = open(folder.path + "/clip.mp4", O_RDONLY | O_CLOEXEC)
        defer { close(clip) }
        let request = WorkerRequest(
            work: .render(specs: [RenditionSpec(size: PixelSize(width: 64, height: 64))]), path: "clip.mp4",
            expectedFingerprint: nil)
        let reply = try worker.perform(request, file: clip, limit: .seconds(60), largestReply: 1 << 20)
        #expect(
            reply
                == .failure(
                    .libraryUnavailable("FFmpeg was not opened before this process confined itself, and cannot be now"))
        )
    }

    @Test func aWorkerStartedByHandIsRefused() throws {
        let program = try #require(IsolatedThumbnailRenderer.defaultWorkerExecutable)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program.string)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == RenderWorkerProcess.ExitStatus.usage)
    }
}
