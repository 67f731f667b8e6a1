import CRenderSandbox
import Glibc
import SystemPackage
import ThumbsCore
import ThumbsImaging
import ThumbsRendering
import ThumbsSupport

/// One file rendered in the calling process, confined as a render worker confines itself: for a
/// command that renders one file and ends (`thumbs thumbnail`), which then starts no worker.
///
/// The process opens the file beneath its root, the decoding libraries it needs (confined, it
/// could open none) and a new file beside the output, then puts itself under a worker's measures
/// for good (`thumbs_confine_single_file`: no new privileges, not dumpable, a worker's
/// address-space limit, Landlock and the seccomp allowlist) and decodes with a worker's decoder.
/// Two things differ from a worker, both for the output: Landlock lets regular files be made
/// and removed beneath the output's folder, and the seccomp filter allows a rename and a removal
/// within that folder only (never an open), so that the finished thumbnail is renamed onto the
/// output; and a call that kills a worker (exec, fork, a socket) is trapped instead, still not
/// made, so that the process can say its file crashed. A fault, that trap, an allocation refused
/// at the limit or a decode past the time limit ends the process with one line on stderr and
/// status 1 (`thumbs_report_single_file_death`), the unfinished file removed.
///
/// It needs a process with one thread (Landlock holds the thread that confines itself and those it
/// starts later), Landlock (without it the rename would not be held to the folder) and seccomp;
/// ``unavailable`` says when it cannot be had, and the command renders in a worker instead.
package enum ConfinedRender {
    /// Why it failed: the file (nothing was written), or the output.
    package enum Failure: Error {
        case file(ImagingError)
        case output(String)
    }

    /// What the process took on, for a command to show (`--verbose`).
    package typealias Confined = (WorkerConfinement) -> Void

    /// Why this process cannot render a file confined, or nil when it can.
    package static var unavailable: String? {
        guard threadCount == 1 else { return "the process has more than one thread" }
        guard thumbs_landlock_abi() > 0 else { return "this kernel (or sandbox) has no Landlock" }
        guard thumbs_seccomp_available() == 1 else { return "this kernel (or sandbox) has no seccomp" }
        return nil
    }

    /// Renders `spec` of `location` and writes it to `output` (beside it first, then renamed onto
    /// it), confined from before the file's first byte is decoded; `decoder` is a worker's
    /// (``RenderWorkerProcess/standardDecoder(_:)`` unless a test puts a hostile one in its place).
    /// `deathLine` is the line the process ends with should the decoder not return. Returns the
    /// thumbnail written. Call it only when ``unavailable`` is nil; the process stays confined.
    package static func render(
        _ location: ImageLocation, spec: RenditionSpec, to output: FilePath, settings: WorkerSettings,
        decoder makeDecoder: (WorkerSettings) -> RenderWorkerProcess.Decoder = RenderWorkerProcess.standardDecoder,
        deathLine: (ImagingError) -> String, confined: Confined = { _ in }
    ) throws(Failure) -> Thumbnail {
        let file: OpenedFile
        do { file = try OpenedFile.open(location) } catch { throw .file(error) }
        let path = location.relativePath.displayString
        let sniffed = try? ImageSource(file: file, path: path, expectedFingerprint: nil)
        DecodingLibrary.openBeforeConfinement(
            settings.libraries.union(FormatRegistry.standard.libraries(for: sniffed, specs: [spec])))
        let target = try OutputFile(beside: output)
        do {
            try confine(settings, target, deathLine: deathLine, confined: confined)
        } catch {
            thumbs_single_file_done()
            target.discard()
            throw error
        }
        let request = WorkerRequest(
            work: .render(specs: [spec]), path: path, expectedFingerprint: location.expectedFingerprint)
        let reply = makeDecoder(settings)(request, file)
        let thumbnail: Thumbnail
        do throws(ReplyError) {
            if case .failure(let error) = reply { throw .file(error) }
            guard case .thumbnails(let thumbnails) = reply else { throw .unexpected("not thumbnails") }
            thumbnail = try ReplyCheck.thumbnails(thumbnails, for: [spec])[0]
        } catch {
            target.discard()
            thumbs_single_file_done()
            if case .file(let error) = error { throw .file(error) }
            throw .file(.crashed)
        }
        defer { thumbs_single_file_done() }
        try target.commit(thumbnail.bytes)
        return thumbnail
    }

    /// Arms the report of a death, then confines the process.
    private static func confine(
        _ settings: WorkerSettings, _ target: OutputFile, deathLine: (ImagingError) -> String, confined: Confined
    ) throws(Failure) {
        thumbs_use_one_openmp_thread()
        let budget = Int(clamping: settings.decodeMemoryBudget.bytes)
        let limit = settings.decodeTimeLimit
        let microseconds =
            UInt64(clamping: limit.components.seconds) * 1_000_000
            + UInt64(clamping: limit.components.attoseconds / 1_000_000_000_000)
        let armed = thumbs_report_single_file_death(
            deathLine(.crashed), deathLine(.tooMuchMemory(needed: .max, budget: budget)),
            deathLine(.timedOut(limit)), target.directory, target.temporaryName, max(1, microseconds))
        guard armed == 0 else {
            throw .file(.libraryUnavailable("cannot arm its report: \(SystemError.describe(-armed))"))
        }
        let addressSpace =
            thumbs_address_space_in_use() + RenderWorkerProcess.addressSpaceHeadroom
            + UInt64(clamping: settings.decodeMemoryBudget.bytes)
        // Asked before confinement, which refuses the question.
        let landlockABI = Int(thumbs_landlock_abi())
        let measures = thumbs_confine_single_file(addressSpace, target.directory)
        guard measures >= 0 else {
            throw .file(.libraryUnavailable("cannot confine this process: \(SystemError.describe(-measures))"))
        }
        DecodingLibrary.sealAfterConfinement()
        confined(
            WorkerConfinement(
                measures: .init(rawValue: UInt32(measures)), addressSpaceLimit: addressSpace, landlockABI: landlockABI))
    }

    private static var threadCount: Int {
        var count = 0
        guard let tasks = opendir("/proc/self/task") else { return 0 }
        defer { closedir(tasks) }
        while let entry = readdir(tasks) {
            if withUnsafeBytes(of: entry.pointee.d_name, { $0.first }) != UInt8(ascii: ".") { count += 1 }
        }
        return count
    }
}
