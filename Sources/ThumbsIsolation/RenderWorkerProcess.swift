import CRenderSandbox
import Glibc
import ThumbsCore
import ThumbsImaging
import ThumbsRendering
import ThumbsSupport

/// The worker's side: what `thumbs-render-worker` runs.
///
/// It opens the decoding libraries its settings name and starts libvips when they name it
/// (confined, it could open nothing more; ``/ThumbsImaging/DecodingLibrary``), confines itself
/// (``WorkerConfinement``), greets its renderer, then serves one request at a time on its
/// socket until the renderer closes it. It decodes on its main thread, with no Swift
/// concurrency; a failure of a file is a typed reply, a fault ends the worker.
package enum RenderWorkerProcess {
    /// Room in the address space for what the worker maps beyond its decodes: the stacks of
    /// libvips' threads, malloc's arenas (64 MiB of address space each), libvips' caches, a file
    /// read whole (WebP, GIF).
    static let addressSpaceHeadroom: UInt64 = 1 << 30
    /// The largest request a renderer sends.
    static let largestRequest = 1 << 20

    /// How a worker ends when it does not serve (sysexits.h's numbers): the renderer sees a worker
    /// that never greeted, and a person who started one by hand, why.
    package enum ExitStatus {
        /// Started without a renderer's settings.
        package static let usage: Int32 = 64
        /// libvips could not start.
        package static let unavailable: Int32 = 69
        /// The worker could not confine itself (or report its death).
        package static let cannotConfine: Int32 = 71
    }

    /// What a worker does with one request and the file that came with it.
    package typealias Decoder = (WorkerRequest, OpenedFile) -> WorkerReply

    /// Runs the worker, decoding with what `decoder` makes of its settings (``standardDecoder(_:)``
    /// unless a test puts a hostile one in its place); returns its exit status. The settings are
    /// the first message on its socket (``WorkerSettings``).
    package static func main(decoder makeDecoder: (WorkerSettings) -> Decoder = standardDecoder) -> Int32 {
        guard let (received, descriptor) = receiveMessage(on: THUMBS_WORKER_SOCKET_FD),
            let settings = WorkerSettings(decoding: received)
        else {
            warn("started by Thumbs' renderer only (no settings on its socket)")
            return ExitStatus.usage
        }
        if descriptor >= 0 { close(descriptor) }
        return openLibrariesAndServe(settings, decoder: makeDecoder(settings))
    }

    /// A worker of ``PrestartedWorker``, forked from a command: it takes its settings, the first
    /// message on its socket (none when the command needed no worker), then runs as any worker.
    static func runForked() -> Int32 {
        guard let (received, descriptor) = receiveMessage(on: THUMBS_WORKER_SOCKET_FD) else { return 0 }
        if descriptor >= 0 { close(descriptor) }
        guard let settings = WorkerSettings(decoding: received) else { return ExitStatus.usage }
        return openLibrariesAndServe(settings, decoder: standardDecoder(settings))
    }

    /// Opens the decoding libraries `settings` name, and starts libvips when they name it, then
    /// serves.
    private static func openLibrariesAndServe(_ settings: WorkerSettings, decoder: Decoder) -> Int32 {
        DecodingLibrary.openBeforeConfinement(settings.libraries)
        if settings.libraries.contains(.libvips) {
            do {
                try VipsRuntime.ensureStarted()
            } catch {
                warn("\(error)")
                return ExitStatus.unavailable
            }
        }
        return serve(settings, decoder: decoder)
    }

    /// Confines the worker, greets the renderer and serves its requests until it goes.
    private static func serve(_ settings: WorkerSettings, decoder decode: Decoder) -> Int32 {
        let socket = THUMBS_WORKER_SOCKET_FD
        thumbs_use_one_openmp_thread()
        guard thumbs_report_fatal_signals(socket) == 0 else { return ExitStatus.cannotConfine }
        let limit =
            thumbs_address_space_in_use() + addressSpaceHeadroom + UInt64(clamping: settings.decodeMemoryBudget.bytes)
        // Asked before confinement, which refuses the question.
        let landlockABI = Int(thumbs_landlock_abi())
        let measures = thumbs_confine_worker(limit)
        guard measures >= 0 else {
            warn("cannot confine itself: \(SystemError.describe(-measures))")
            return ExitStatus.cannotConfine
        }
        DecodingLibrary.sealAfterConfinement()
        let confinement = WorkerConfinement(
            measures: .init(rawValue: UInt32(measures)), addressSpaceLimit: limit,
            landlockABI: landlockABI)
        guard send(WorkerGreeting(confinement: confinement).encoded(), on: socket) else { return 0 }
        while let (request, descriptor) = receiveRequest(on: socket) {
            guard send([RenderWorker.acknowledgement], on: socket) else { return 0 }
            let reply: WorkerReply
            switch (request, descriptor) {
            case (.failure(let error), let descriptor):
                if descriptor >= 0 { close(descriptor) }
                reply = .failure(.unreadable("\(error)"))
            case (.success, ..<0): reply = .failure(.unreadable("no file came with the request"))
            case (.success(let request), _): reply = decode(request, OpenedFile(adopting: descriptor))
            }
            guard send(reply.encoded(), on: socket) else { return 0 }
        }
        return 0
    }

    /// Thumbs' decoders, with the worker's limits: what `request` asks, done on `file`; a
    /// failure is the reply.
    package static func standardDecoder(_ settings: WorkerSettings) -> Decoder {
        let renderer = VipsRenderer(
            pixelLimit: settings.pixelLimit, decodeMemoryBudget: settings.decodeMemoryBudget,
            decodeTimeLimit: settings.decodeTimeLimit)
        return { request, file in
            do throws(ImagingError) {
                return try reply(to: request, file: file, renderer)
            } catch {
                return .failure(error)
            }
        }
    }

    private static func reply(
        to request: WorkerRequest, file: OpenedFile, _ renderer: VipsRenderer
    ) throws(ImagingError) -> WorkerReply {
        let source = try ImageSource(
            file: file, path: request.path, expectedFingerprint: request.expectedFingerprint)
        switch request.work {
        case .inspect:
            return .inspection(try renderer.inspect(source))
        case .render(let specs):
            try source.ensureAsset()
            return .thumbnails(try renderer.render(source, specs: specs))
        case .renderCrop(let spec, let crop):
            try source.ensureAsset()
            return .thumbnails([try renderer.render(source, spec: spec, crop: crop)])
        case .embeddedPreview(let format, let quality):
            try source.ensureAsset()
            return .preview(try renderer.embeddedPreview(source, format: format, quality: quality))
        }
    }

    /// The next request and the descriptor that came with it (-1: none); nil once the renderer
    /// closed the socket (or broke the framing, which ends the worker too).
    static func receiveRequest(on socket: Int32) -> (Result<WorkerRequest, WireError>, Int32)? {
        guard let (payload, descriptor) = receiveMessage(on: socket) else { return nil }
        do throws(WireError) {
            return (.success(try WorkerRequest(decoding: payload)), descriptor)
        } catch {
            return (.failure(error), descriptor)
        }
    }

    /// The next message's bytes and the descriptor that came with them (-1: none); nil at the
    /// end of the stream or past the largest request.
    private static func receiveMessage(on socket: Int32) -> ([UInt8], Int32)? {
        var header = [UInt8](repeating: 0, count: WireWriter.headerSize)
        var descriptor: Int32 = -1
        let got = header.withUnsafeMutableBytes {
            thumbs_receive_with_descriptor(socket, $0.baseAddress, $0.count, &descriptor)
        }
        func failed() -> ([UInt8], Int32)? {
            if descriptor >= 0 { close(descriptor) }
            return nil
        }
        guard got > 0, header.withUnsafeMutableBytes({ read(socket, $0, from: got) }) else { return failed() }
        let length = header.reversed().reduce(0) { $0 << 8 | Int($1) }
        guard length <= largestRequest else { return failed() }
        var payload = [UInt8](repeating: 0, count: length)
        guard payload.withUnsafeMutableBytes({ read(socket, $0, from: 0) }) else { return failed() }
        return (payload, descriptor)
    }

    /// Fills `buffer` from `offset` on; false at the end of the stream.
    private static func read(_ socket: Int32, _ buffer: UnsafeMutableRawBufferPointer, from offset: Int) -> Bool {
        var filled = offset
        while filled < buffer.count {
            let got = Glibc.read(socket, buffer.baseAddress! + filled, buffer.count - filled)
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return false }
            filled += got
        }
        return true
    }

    /// A line on stderr, which the worker shares with its renderer.
    private static func warn(_ message: String) {
        let line = Array("thumbs-render-worker: \(message)\n".utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    }

    /// Writes all of `bytes`; false when the renderer is gone.
    private static func send(_ bytes: [UInt8], on socket: Int32) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var sent = 0
            while sent < buffer.count {
                let wrote = Glibc.send(socket, buffer.baseAddress! + sent, buffer.count - sent, Int32(MSG_NOSIGNAL))
                if wrote < 0, errno == EINTR { continue }
                guard wrote > 0 else { return false }
                sent += wrote
            }
            return true
        }
    }
}
