import Glibc
import SystemPackage
import ThumbsCore
import ThumbsImaging
import ThumbsSupport

/// The renderer's workers, one per render thread: each slot holds a worker process, starts one
/// when it has none, and replaces one that died.
///
/// A render thread takes a free slot for the whole of one request, so a worker serves one
/// request at a time; there are as many slots as threads, so one is always free.
///
/// A worker opens the decoding libraries it may need before it confines itself, and can open
/// none after (``WorkerSettings/libraries``). Opening all of them costs a worker tens of
/// milliseconds and a hundred shared objects that a library of JPEGs never uses, so workers
/// open those the files met so far needed: the first video a slot is given replaces its worker
/// with one that opens FFmpeg as well. A JPEG needs none (libjpeg-turbo is linked at start)
/// unless libvips must take it over (CMYK, damage, a profile other than sRGB): its worker then
/// fails it as a library it lacks, and the file goes again to a worker that opens libvips.
final class RenderWorkerSlots: Sendable {
    private let slots: [LockedValue<Slot>]
    private let idle: LockedValue<[Int]>
    /// Each slot's worker's process id, nil while it has none.
    private let running: LockedValue<[pid_t?]>
    let executable: FilePath
    let settings: WorkerSettings
    /// The libraries the files given so far needed: what a worker started now opens.
    private let neededLibraries = LockedValue<Set<DecodingLibrary>>([])
    /// What the latest worker to start reported.
    private let latestConfinement = LockedValue<WorkerConfinement?>(nil)

    /// How long a worker may take to start (load its libraries, confine itself): a machine
    /// under load may need seconds, never this long.
    static let startLimit = Duration.seconds(60)

    private struct Slot: Sendable {
        var worker: RenderWorker?
        var greeted = false
        /// The libraries its worker opens.
        var libraries: Set<DecodingLibrary> = []
    }

    init(count: Int, executable: FilePath, settings: WorkerSettings) {
        slots = (0..<count).map { _ in LockedValue(Slot()) }
        idle = LockedValue(Array(0..<count))
        running = LockedValue(Array(repeating: nil, count: count))
        self.executable = executable
        self.settings = settings
    }

    deinit {
        for slot in slots { slot.withLock { $0.worker?.stop() } }
    }

    var confinement: WorkerConfinement? { latestConfinement.withLock { $0 } }

    /// The workers' process ids, for the people who watch them. Kept apart from the slots, whose
    /// locks are held for whole requests.
    var processIDs: [pid_t] { running.withLock { $0.compactMap { $0 } } }

    /// Starts every slot's worker now, without waiting for them to be ready: a renderer's first
    /// renders then find them started. The slots take the workers the command forked as it
    /// started (``PrestartedWorker``) first.
    func startAll() {
        let settings = self.settings.opening(neededLibraries.withLock { $0 })
        for index in slots.indices {
            slots[index].withLock { slot in
                guard slot.worker == nil else { return }
                let prestarted = PrestartedWorker.take().flatMap {
                    try? RenderWorker.adopt(pid: $0.pid, socket: $0.socket, settings: settings)
                }
                let worker =
                    prestarted ?? (try? RenderWorker.start(executable: executable, settings: settings))
                if let worker { replace(&slot, at: index, with: worker, opening: settings.libraries) }
            }
        }
        PrestartedWorker.discard()
    }

    /// Runs `request` on a free slot's worker, one that has opened `libraries` (those the file
    /// needs). A worker that ended before it took the file is replaced and the request given to
    /// the new one; one that died with the file makes the file fail.
    ///
    /// `accept` turns the reply into the result, and throws for a reply that is not what the
    /// request asked for: the worker is then ended (it broke the protocol, or was taken over)
    /// and the file fails as ``/ThumbsCore/ImagingError/crashed``. An ``/ThumbsCore/ImagingError`` it throws is the
    /// file's own failure, and the worker stays.
    func perform<T>(
        _ request: WorkerRequest, file: Int32, needing libraries: Set<DecodingLibrary>, limit: Duration,
        largestReply: Int, accept: (WorkerReply) throws(ReplyError) -> T
    ) throws(ImagingError) -> T {
        var libraries = DecodingLibrary.forManyFiles(libraries)
        var needed = neededLibraries.withLock {
            $0.formUnion(libraries)
            return $0
        }
        let index = idle.withLock { $0.popLast() }
        guard let index else { preconditionFailure("more render threads than worker slots") }
        defer { idle.withLock { $0.append(index) } }
        return try slots[index].withLock { slot throws(ImagingError) in
            // Twice for a worker that ends before it takes the file, once more for a file its
            // worker lacked libvips for.
            for _ in 0..<3 {
                let worker = try ready(&slot, at: index, opening: libraries, else: needed)
                let reply: WorkerReply
                do throws(WorkerDeath) {
                    reply = try worker.perform(request, file: file, limit: limit, largestReply: largestReply)
                } catch {
                    replace(&slot, at: index, with: nil)
                    guard let cause = error.cause else { continue }
                    throw failure(of: cause)
                }
                do throws(ReplyError) {
                    return try accept(reply)
                } catch {
                    switch error {
                    case .file(let failure)
                    where failure.kind == .libraryUnavailable && !slot.libraries.contains(.libvips):
                        libraries.insert(.libvips)
                        needed = neededLibraries.withLock {
                            $0.insert(.libvips)
                            return $0
                        }
                    case .file(let failure): throw failure
                    case .unexpected:
                        worker.stop()
                        replace(&slot, at: index, with: nil)
                        throw .crashed
                    }
                }
            }
            throw .libraryUnavailable("render workers keep ending before they take a file")
        }
    }

    /// The slot's worker, started and greeted: its own if that opens `libraries`, else a new
    /// one that opens `needed`.
    private func ready(
        _ slot: inout Slot, at index: Int, opening libraries: Set<DecodingLibrary>, else needed: Set<DecodingLibrary>
    ) throws(ImagingError) -> RenderWorker {
        let worker: RenderWorker
        if let running = slot.worker, slot.libraries.isSuperset(of: libraries) {
            worker = running
        } else {
            slot.worker?.stop()
            let settings = self.settings.opening(needed)
            worker = try RenderWorker.start(executable: executable, settings: settings)
            replace(&slot, at: index, with: worker, opening: settings.libraries)
        }
        guard !slot.greeted else { return worker }
        do throws(WorkerDeath) {
            let confinement = try worker.greeting(within: Self.startLimit)
            slot.greeted = true
            latestConfinement.withLock { $0 = confinement }
            return worker
        } catch {
            replace(&slot, at: index, with: nil)
            throw .libraryUnavailable("the render worker \(executable) did not start (\(error.reason))")
        }
    }

    /// Puts `worker` (none: nil), which opens `libraries`, in the slot at `index`, not yet greeted.
    private func replace(
        _ slot: inout Slot, at index: Int, with worker: RenderWorker?, opening libraries: Set<DecodingLibrary> = []
    ) {
        slot = Slot(worker: worker, libraries: libraries)
        running.withLock { $0[index] = worker?.pid }
    }

    private func failure(of cause: WorkerDeath.Cause) -> ImagingError {
        switch cause {
        case .crashed: .crashed
        case .timedOut(let limit): .timedOut(limit)
        case .outOfMemory: .tooMuchMemory(needed: .max, budget: Int(clamping: settings.decodeMemoryBudget.bytes))
        }
    }
}
