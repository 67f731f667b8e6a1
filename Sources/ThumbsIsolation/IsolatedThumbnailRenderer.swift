import Foundation
import SystemPackage
import ThumbsCore
import ThumbsImaging
import ThumbsRendering
import ThumbsSupport

/// Renders thumbnails in confined worker processes: a fault, a runaway allocation or a stuck
/// decoder in any of the C libraries that read a file costs that file, never the process that
/// asked.
///
/// As many workers as ``/ThumbsRendering/ImagingConfiguration/workers`` start with the renderer and each renders
/// one file at a time, keeping libvips and its decoders warm between files. The renderer opens
/// each file beneath its library root and hands the worker the open descriptor; the worker,
/// confined before it read a byte of input (``WorkerConfinement``), decodes, resizes and encodes,
/// and answers with the encoded thumbnails only, which the renderer checks before it trusts
/// them. A worker that dies fails its file as ``/ThumbsCore/ImagingError/crashed`` (or
/// ``/ThumbsCore/ImagingError/tooMuchMemory(needed:budget:)`` when it died at its memory limit), one that
/// overstays ``/ThumbsRendering/ImagingConfiguration/decodeTimeLimit`` on any file is killed and fails it as
/// ``/ThumbsCore/ImagingError/timedOut(_:)``, and either is replaced before the next file.
/// ```swift
/// let renderer = try IsolatedThumbnailRenderer()
/// let thumbnails = try await renderer.render(location, specs: [spec], ticket: PriorityTicket(.interactive))
/// ```
public final class IsolatedThumbnailRenderer: ThumbnailRendering {
    public let configuration: ImagingConfiguration
    private let slots: RenderWorkerSlots
    /// The render threads, which wait for the workers (never a cooperative thread).
    private let pool: BlockingThreadPool
    private let readAhead = ReadAhead()

    /// Starts the workers from `workerExecutable`, by default `thumbs-render-worker` beside the
    /// running program (``defaultWorkerExecutable``). Fails when there is no such program.
    public init(
        configuration: ImagingConfiguration = ImagingConfiguration(), workerExecutable: FilePath? = nil
    ) throws(ImagingError) {
        guard let executable = workerExecutable ?? Self.defaultWorkerExecutable,
            access(executable.string, X_OK) == 0
        else {
            throw .libraryUnavailable(
                "no render worker program (\(Self.workerProgramName) beside \(Self.runningProgram?.string ?? "this program"))"
            )
        }
        self.configuration = configuration
        slots = RenderWorkerSlots(
            count: configuration.workers, executable: executable, settings: WorkerSettings(sharing: configuration))
        pool = BlockingThreadPool(name: "thumbs-render", threadCount: configuration.workers)
        slots.startAll()
    }

    public var workers: Int { pool.threadCount }

    /// What the workers reported of their confinement; nil until one has started.
    public var confinement: WorkerConfinement? { slots.confinement }

    /// The process ids of the workers running now.
    public var workerProcessIDs: [Int32] { slots.processIDs }

    /// The program name workers run by default.
    public static let workerProgramName = "thumbs-render-worker"

    /// `thumbs-render-worker` beside the running program, or as `THUMBS_RENDER_WORKER` names it.
    public static var defaultWorkerExecutable: FilePath? {
        if let named = ProcessInfo.processInfo.environment["THUMBS_RENDER_WORKER"], !named.isEmpty {
            return FilePath(named)
        }
        return runningProgram?.removingLastComponent().appending(workerProgramName)
    }

    private static var runningProgram: FilePath? {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")).map { FilePath($0) }
    }

    public func render(
        _ location: ImageLocation, specs: [RenditionSpec], ticket: PriorityTicket
    ) async throws -> [Thumbnail] {
        guard !specs.isEmpty else { return [] }
        if pool.waitingCount > 0 { readAhead.advise(location, priority: ticket.priority) }
        return try await pool.run(ticket: ticket) { [slots, configuration] in
            try Self.perform(.render(specs: specs), on: location, slots, configuration) { reply, _ throws(ReplyError) in
                guard case .thumbnails(let thumbnails) = reply else { throw .unexpected("not thumbnails") }
                return try ReplyCheck.thumbnails(thumbnails, for: specs)
            }
        }
    }

    public func render(
        _ location: ImageLocation, spec: RenditionSpec, crop: NormalizedRect, priority: WorkPriority
    ) async throws -> Thumbnail {
        try await pool.run(priority: priority) { [slots, configuration] in
            try Self.perform(.renderCrop(spec: spec, crop: crop), on: location, slots, configuration) {
                reply, _ throws(ReplyError) in
                guard case .thumbnails(let thumbnails) = reply else { throw .unexpected("not thumbnails") }
                return try ReplyCheck.thumbnails(thumbnails, for: [spec])[0]
            }
        }
    }

    public func embeddedPreview(
        _ location: ImageLocation, format: ThumbnailFormat, quality: Int, priority: WorkPriority
    ) async throws -> Thumbnail? {
        try await pool.run(priority: priority) { [slots, configuration] in
            try Self.perform(.embeddedPreview(format: format, quality: quality), on: location, slots, configuration) {
                reply, _ throws(ReplyError) in
                guard case .preview(let preview) = reply else { throw .unexpected("not a preview") }
                return try preview.map { thumbnail throws(ReplyError) in
                    try ReplyCheck.preview(thumbnail, format: format, pixelLimit: configuration.pixelLimit)
                }
            }
        }
    }

    /// A thumbnail's placeholder, decoded in this process: the thumbnail is one a worker made and
    /// this process checked, not a library file.
    public func placeholder(of thumbnail: Thumbnail) throws(ImagingError) -> ThumbHash {
        try ThumbHash(encoded: thumbnail)
    }

    public func inspect(_ location: ImageLocation) async throws -> Inspection {
        let unchecked = ImageLocation(root: location.root, relativePath: location.relativePath)
        return try await pool.run { [slots, configuration] in
            try Self.perform(.inspect, on: unchecked, slots, configuration) { reply, file throws(ReplyError) in
                guard case .inspection(let inspection) = reply else { throw .unexpected("not an inspection") }
                // The type the worker says, against the one sniffed here (a few magic bytes
                // compared in Swift).
                let sniffed: ImageSource
                do throws(ImagingError) {
                    sniffed = try ImageSource(
                        file: file, path: location.relativePath.displayString, expectedFingerprint: nil)
                } catch {
                    throw .file(error)
                }
                return try ReplyCheck.inspection(inspection, of: sniffed)
            }
        }
    }

    /// Opens `location` beneath its root and has a worker do `work` on it; `accept` checks the
    /// reply against the request (and may read the open file). On a render thread.
    private static func perform<T>(
        _ work: WorkerRequest.Work, on location: ImageLocation, _ slots: RenderWorkerSlots,
        _ configuration: ImagingConfiguration, accept: (WorkerReply, OpenedFile) throws(ReplyError) -> T
    ) throws(ImagingError) -> T {
        let file = try OpenedFile.open(location)
        // Sniffed here too, for the libraries the worker must have opened.
        let sniffed = try? ImageSource(file: file, path: location.relativePath.displayString, expectedFingerprint: nil)
        let request = WorkerRequest(
            work: work, path: location.relativePath.displayString, expectedFingerprint: location.expectedFingerprint)
        return try withExtendedLifetime(file) { () throws(ImagingError) -> T in
            try slots.perform(
                request, file: file.descriptor,
                needing: FormatRegistry.standard.libraries(for: sniffed),
                limit: configuration.decodeTimeLimit,
                largestReply: ReplyCheck.largestReply(to: work, pixelLimit: configuration.pixelLimit)
            ) { reply throws(ReplyError) in
                if case .failure(let error) = reply { throw .file(error) }
                return try accept(reply, file)
            }
        }
    }
}
