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

/// The isolated renderer on real worker processes: what they render, what holds them in, and
/// what a worker's death costs (real signals, sent to the real process).
@Suite struct IsolatedThumbnailRendererTests {
    let folder = TemporaryFolder("thumbs-isolation")
    let spec = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)

    func renderer(
        workers: Int = 1, timeLimit: Duration = .seconds(60)
    ) throws -> IsolatedThumbnailRenderer {
        var configuration = ImagingConfiguration(workers: workers)
        configuration.decodeTimeLimit = timeLimit
        return try IsolatedThumbnailRenderer(configuration: configuration)
    }

    func photo(_ name: String, width: Int = 1600, height: Int = 1200, as container: SyntheticImage.Container = .jpeg)
        throws -> ImageLocation
    {
        try folder.write(SyntheticImage(width: width, height: height).encoded(as: container), to: name)
        return ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
    }

    func render(_ location: ImageLocation, with renderer: IsolatedThumbnailRenderer) async throws -> Thumbnail {
        try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.interactive))[0]
    }

    @Test func rendersWhatTheInProcessRendererRenders() async throws {
        let location = try photo("a.jpg")
        let isolated = try await render(location, with: try renderer())
        let inProcess = try await ThumbnailRenderer().render(
            location, specs: [spec], ticket: PriorityTicket(.interactive))
        #expect(isolated == inProcess[0])
        #expect(isolated.placeholder == inProcess[0].placeholder)
    }

    @Test func aSettledDamagedFileComesBackPartialFromTheWorker() async throws {
        let whole = try SyntheticImage(width: 600, height: 400).encoded(as: .jpeg)
        try FileAge.markBeingWritten(try folder.write(Array(whole.prefix(whole.count / 2)), to: "cut.jpg"))
        let location = ImageLocation(root: FilePath(folder.path), relativePath: "cut.jpg")
        let isolated = try renderer()
        await #expect(throws: ImagingError.self, "being written: a copy that may be under way") {
            try await render(location, with: isolated)
        }
        try FileAge.settle(folder.path + "/cut.jpg")
        let thumbnail = try await render(location, with: isolated)
        #expect(thumbnail.isPartial)
        #expect(try await render(try photo("whole.jpg"), with: isolated).isPartial == false)
    }

    @Test func inspectsAndFailsFilesAsTheInProcessRendererDoes() async throws {
        let location = try photo("b.png", as: .png)
        let isolated = try renderer()
        let inspection = try await isolated.inspect(location)
        #expect(inspection == (try await ThumbnailRenderer().inspect(location)))
        try folder.write(Array("not a photo".utf8), to: "c.jpg")
        let notPhoto = ImageLocation(root: FilePath(folder.path), relativePath: "c.jpg")
        await #expect(throws: ImagingError.unsupportedFormat("not an image or a video")) {
            try await render(notPhoto, with: isolated)
        }
        // The failure was the file's: the same worker renders the next one.
        let pid = isolated.workerProcessIDs
        _ = try await render(location, with: isolated)
        #expect(isolated.workerProcessIDs == pid)
    }

    /// Whether a process maps FFmpeg's libavcodec. (`/proc` files say they are empty: read to
    /// their end.)
    private func mapsFFmpeg(_ pid: Int32) throws -> Bool {
        try maps(pid, "/libavcodec.so")
    }

    private func maps(_ pid: Int32, _ library: String) throws -> Bool {
        let maps = try #require(FileHandle(forReadingAtPath: "/proc/\(pid)/maps")).readDataToEndOfFile()
        return String(decoding: maps, as: UTF8.self).contains(library)
    }

    /// A worker for JPEGs, or PNGs of RGB, opens no libvips; a CMYK JPEG or a PNG of 16-bit grey
    /// with alpha, which libvips must read, is failed by it as a library it lacks and goes to a
    /// worker that opens libvips, rendering as in this process.
    @Test(arguments: [(SyntheticImage.Container.jpeg, SyntheticImage.Pixels.cmyk), (.png, .greyAlpha16)])
    func aWorkerOnlyOpensLibvipsWhenAFileNeedsIt(container: SyntheticImage.Container, needing: SyntheticImage.Pixels)
        async throws
    {
        let isolated = try renderer()
        _ = try await render(try photo("plain.\(container.rawValue)", as: container), with: isolated)
        let first = try #require(isolated.workerProcessIDs.first)
        #expect(try maps(first, "/libvips.so") == false)
        let name = "libvips.\(container.rawValue)"
        try folder.write(SyntheticImage(width: 300, height: 200, pixels: needing).encoded(as: container), to: name)
        let needy = ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
        let inProcess = try await ThumbnailRenderer().render(needy, specs: [spec], ticket: PriorityTicket(.interactive))
        #expect(try await render(needy, with: isolated) == inProcess[0])
        let second = try #require(isolated.workerProcessIDs.first)
        #expect(second != first)
        #expect(try maps(second, "/libvips.so"))
    }

    /// A worker for a HEIC libheif alone renders opens libheif, and FFmpeg, whose decoders pay
    /// off over a worker's many files, but no libvips; it renders as this process does.
    @Test(.enabled(if: SubtypeFiles.hasHeifEnc, SubtypeFiles.heifEncSkipReason))
    func aHEICsWorkerOpensLibheifAndFFmpegButNoLibvips() async throws {
        let png = try folder.write(try SyntheticImage(width: 900, height: 600).encoded(as: .png), to: "photo.png")
        let encoded = try ThumbsProcess.run(
            ["-o", folder.path + "/photo.heic", png], executablePath: SubtypeFiles.heifEnc)
        try #require(encoded.status == 0, "heif-enc: \(encoded.standardError)")
        let heic = ImageLocation(root: FilePath(folder.path), relativePath: "photo.heic")
        let isolated = try renderer()
        let thumbnail = try await render(heic, with: isolated)
        let worker = try #require(isolated.workerProcessIDs.first)
        #expect(try maps(worker, "/libheif.so"))
        #expect(try mapsFFmpeg(worker))
        #expect(try maps(worker, "/libvips.so") == false)
        let inProcess = try await ThumbnailRenderer().render(heic, specs: [spec], ticket: PriorityTicket(.interactive))
        #expect(thumbnail == inProcess[0])
    }

    /// A worker opens the libraries the files so far needed: none of FFmpeg for a JPEG; a video
    /// then has its worker replaced by one that opens FFmpeg too, which renders the JPEG next.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func workersOpenTheLibrariesTheFilesNeed() async throws {
        let jpeg = try photo("d.jpg")
        let isolated = try renderer()
        _ = try await render(jpeg, with: isolated)
        let first = try #require(isolated.workerProcessIDs.first)
        #expect(try mapsFFmpeg(first) == false)
        try GeneratedMedia.ffmpeg([
            "-f", "lavfi", "-i", "testsrc=size=320x240:rate=10", "-t", "1", "-pix_fmt", "yuv420p",
            folder.path + "/clip.mp4",
        ])
        let video = try await render(
            ImageLocation(root: FilePath(folder.path), relativePath: "clip.mp4"), with: isolated)
        #expect(video.pixelSize == PixelSize(width: 240, height: 240))
        let second = try #require(isolated.workerProcessIDs.first)
        #expect(second != first)
        #expect(try mapsFFmpeg(second))
        _ = try await render(jpeg, with: isolated)
        #expect(isolated.workerProcessIDs == [second])
    }

    /// A JPEG XL still (libvips' module, loaded before the worker confines itself) and an
    /// animated AVIF (libavif) render in a worker as in this process.
    @Test(
        .enabled(if: GeneratedMedia.hasVips, GeneratedMedia.vipsSkipReason),
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason))
    func workersRenderJPEGXLAndAnimatedAVIF() async throws {
        _ = try photo("source.png", width: 320, height: 240, as: .png)
        try GeneratedMedia.jpegXL(at: folder.path + "/still.jxl", from: folder.path + "/source.png")
        try GeneratedMedia.animatedAVIF(
            at: folder.path + "/animated.avif", frames: [folder.path + "/source.png", folder.path + "/source.png"])
        let isolated = try renderer()
        for name in ["still.jxl", "animated.avif"] {
            let location = ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
            let inProcess = try await ThumbnailRenderer().render(
                location, specs: [spec], ticket: PriorityTicket(.interactive))
            #expect(try await render(location, with: isolated) == inProcess[0], "\(name)")
            #expect(try await isolated.inspect(location) == (try await ThumbnailRenderer().inspect(location)))
        }
    }

    /// A Live Photo's still and a motion photo: the content identifier and the embedded movie,
    /// read in a confined worker through the descriptor it was handed, reach the renderer.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func workersReadLivePhotosAndMotionPhotos() async throws {
        let identifier = "3E2D1C0B-9A8F-4E7D-8C6B-5A4F3E2D1C0B"
        _ = try folder.write(try LivePhotoFiles.iPhoneStill(contentIdentifier: identifier), to: "live.jpg")
        let movie = try LivePhotoFiles.movie(in: folder)
        _ = try folder.write(
            try LivePhotoFiles.motionPhoto(
                xmp: LivePhotoFiles.motionPhotoXMP(movieLength: movie.count, form: .attributes), movie: movie),
            to: "motion.jpg")
        let isolated = try renderer()
        for name in ["live.jpg", "motion.jpg"] {
            let location = ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
            let inspection = try await isolated.inspect(location)
            #expect(inspection == (try await ThumbnailRenderer().inspect(location)))
            let properties = try #require(inspection.properties)
            #expect(properties.contentIdentifier == (name == "live.jpg" ? identifier : nil))
            #expect((properties.embeddedMovie?.length).map(Int.init) == (name == "motion.jpg" ? movie.count : nil))
        }
    }

    /// A worker reads a burst's frame and a screenshot by its folder, from the path inside the
    /// root the request carries.
    @Test func workersReadBurstsAndSubtypes() async throws {
        let uuid = "2F0E6A8C-1B3D-4E5F-9A7B-8C6D5E4F3A2B"
        _ = try folder.write(try SubtypeFiles.iPhoneBurstFrame(burstUUID: uuid), to: "burst.jpg")
        try FileManager.default.createDirectory(atPath: folder.path + "/Screenshots", withIntermediateDirectories: true)
        _ = try folder.write(try SyntheticImage(width: 64, height: 48).encoded(as: .png), to: "Screenshots/a.png")
        let isolated = try renderer()
        for name in ["burst.jpg", "Screenshots/a.png"] {
            let location = ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
            let inspection = try await isolated.inspect(location)
            #expect(inspection == (try await ThumbnailRenderer().inspect(location)))
            let properties = try #require(inspection.properties)
            #expect(properties.burst == (name == "burst.jpg" ? BurstMembership(identifier: uuid) : nil))
            #expect(properties.mediaSubtypes == (name == "burst.jpg" ? [] : .photoScreenshot))
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func workersReadSlowMotionAndTimeLapses() async throws {
        try VideoSubtypeFiles.clip(at: folder.path + "/slomo.mp4", frameRate: 240)
        try VideoSubtypeFiles.androidClip(at: folder.path + "/timelapse.mp4", captureRate: 0.5)
        let isolated = try renderer()
        for (name, subtypes) in [("slomo.mp4", MediaSubtypes.videoHighFrameRate), ("timelapse.mp4", .videoTimelapse)] {
            let location = ImageLocation(root: FilePath(folder.path), relativePath: FilePath(name))
            let inspection = try await isolated.inspect(location)
            #expect(inspection == (try await ThumbnailRenderer().inspect(location)))
            #expect(inspection.properties?.mediaSubtypes == subtypes, "\(name)")
        }
    }

    @Test(.voidedBySanitizer("a worker takes no seccomp filter, Landlock or limit"))
    func workersAreConfinedBeforeTheyReadInput() async throws {
        let isolated = try renderer(workers: 2)
        _ = try await render(try photo("a.jpg"), with: isolated)
        let confinement = try #require(isolated.confinement)
        #expect(confinement.measures.isSuperset(of: [.noNewPrivileges, .notDumpable, .seccomp]))
        #expect(confinement.measures.contains(.landlock) == (WorkerConfinement.available.landlockABI > 0))
        #expect(confinement.measures.contains(.addressSpaceLimit))
        #expect(isolated.workerProcessIDs.count == 2)
        for pid in isolated.workerProcessIDs {
            let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8)
            #expect(status.contains("Seccomp:\t2"))
            #expect(status.contains("NoNewPrivs:\t1"))
        }
    }

    @Test func aWorkerStoppedPastTheTimeLimitIsKilledAndTheFileTimesOut() async throws {
        let isolated = try renderer(timeLimit: .milliseconds(500))
        let location = try photo("a.jpg")
        _ = try await render(location, with: isolated)
        let stopped = try #require(isolated.workerProcessIDs.first)
        kill(stopped, SIGSTOP)
        await #expect(throws: ImagingError.timedOut(.milliseconds(500))) { try await render(location, with: isolated) }
        #expect(!isolated.workerProcessIDs.contains(stopped))
        _ = try await render(location, with: isolated)
        #expect(isolated.workerProcessIDs.count == 1)
    }

    @Test(arguments: [SIGSEGV, SIGKILL])
    func aWorkerThatDiesWithAFileFailsThatFileAlone(signal: Int32) async throws {
        let isolated = try renderer()
        // 16-bit grey with alpha, which libvips decodes, through a descriptor of its own: what
        // RenderWorkers.isDecoding sees.
        try folder.write(
            SyntheticImage(width: 4000, height: 3000, pixels: .greyAlpha16).encoded(as: .png), to: "large.png")
        let large = ImageLocation(root: FilePath(folder.path), relativePath: "large.png")
        let small = try photo("small.jpg")
        let victim = try await WorkerInTheMiddleOfADecode.stop(isolated, rendering: large, spec: spec)
        kill(victim.pid, signal)
        kill(victim.pid, SIGCONT)
        await #expect(throws: ImagingError.crashed) { try await victim.render.value }
        _ = try await render(small, with: isolated)
        #expect(isolated.workerProcessIDs.count == 1 && isolated.workerProcessIDs != [victim.pid])
    }

    @Test func aMissingWorkerProgramIsATypedError() {
        #expect(throws: ImagingError.self) {
            try IsolatedThumbnailRenderer(workerExecutable: FilePath(folder.path + "/no-such-worker"))
        }
    }
}

/// A render caught while its worker decodes: the worker stopped (SIGSTOP) with the file in hand.
struct WorkerInTheMiddleOfADecode {
    let pid: pid_t
    let render: Task<Thumbnail, any Error>

    static func stop(
        _ renderer: IsolatedThumbnailRenderer, rendering location: ImageLocation, spec: RenditionSpec
    ) async throws -> WorkerInTheMiddleOfADecode {
        for _ in 0..<50 {
            let done = Locked(false)
            let render = Task.detached {
                defer { done.withLock { $0 = true } }
                return try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.interactive))[0]
            }
            let stopped = await RenderWorkers.stopOneDecoding(
                among: { renderer.workerProcessIDs }, gaveUp: { done.withLock { $0 } })
            if let stopped { return WorkerInTheMiddleOfADecode(pid: stopped, render: render) }
            _ = try await render.value
        }
        throw CancellationError()
    }
}
