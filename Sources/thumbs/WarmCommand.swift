import ArgumentParser
import Dispatch
import Foundation
import Thumbs

struct WarmCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "warm",
        abstract: "Render every configured rendition of the library into the cache.",
        discussion: """
            Fresh thumbnails are skipped, so a second run over an unchanged library decodes \
            nothing; a file that failed before is skipped until it changes. Ctrl-C stops cleanly: \
            what was rendered is committed (exit status 130) and the next run resumes.

            On a terminal a progress line is kept up to date; otherwise (or with --json) progress \
            is printed as JSON lines.

            Exit status: 0 all fresh or rendered, 1 some photos failed, 2 usage or configuration \
            error, 3 cache error, 130 interrupted.

            Example:
              thumbs warm ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let configuration = try loadOrExit(library.options)
        let (photoLibrary, _) = try library.open()
        let job = WarmJob(library: photoLibrary, renditions: configuration.renditions.map(\.spec))
        let display = ProgressDisplay(json: library.json || isatty(STDOUT_FILENO) == 0)
        CommandLog.logger.debug("renditions: \(job.renditions.map(\.description).joined(separator: ", "))")
        let summary = try await Interrupt.run(onInterrupt: {
            display.finish(display.last ?? WarmJob.Progress(), interrupted: true)
        }) {
            try await job.run { display.show($0) }
        }
        CommandLog.logger.debug("warm: \(summary)")
        display.finish(summary, interrupted: false)
        if summary.failed > 0 { CommandFailure.someFailed(summary.failed).exitWithCode(1) }
    }
}

/// Progress as a live line on a terminal, or JSON lines.
final class ProgressDisplay: Sendable {
    private let json: Bool
    private let state = LockedProgress()

    init(json: Bool) {
        self.json = json
    }

    var last: WarmJob.Progress? { state.last }

    func show(_ progress: WarmJob.Progress) {
        if CommandLog.isQuiet { return }
        if let failure = progress.failure { report(failure) }
        // At most about five updates a second.
        guard state.record(progress) else { return }
        if json {
            print(Self.json(progress, event: "progress"))
            fflush(nil)  // JSON lines are read as they come, not when a pipe buffer fills
        } else {
            var line = "\r\(Self.bar(progress)) \(progress)"
            if let left = progress.estimatedSecondsLeft, progress.walkFinished {
                line += String(format: ", about %.0f s left", left)
            }
            FileHandle.standardError.write(Data((line + "\u{1B}[K").utf8))
        }
    }

    /// "[########------------]": done of found so far (the walk may still be finding more).
    private static func bar(_ progress: WarmJob.Progress) -> String {
        let width = 20
        let filled = progress.found > 0 ? min(width, progress.done * width / progress.found) : 0
        return "[" + String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled) + "]"
    }

    /// Every failure gets its line at once: what failed and why.
    private func report(_ failure: (path: String, error: ImagingError)) {
        if json {
            let fields: [String: Any] = ["event": "failed", "path": failure.path, "kind": failure.error.kind.rawValue,
                                         "message": failure.error.description]
            let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
            fflush(nil)
        } else {
            let line = "\r\u{1B}[Kfailed \(failure.path): \(failure.error.kind.rawValue): \(failure.error)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    func finish(_ progress: WarmJob.Progress, interrupted: Bool) {
        if json {
            print(Self.json(progress, event: interrupted ? "interrupted" : "summary"))
            return
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        let seconds = Double(progress.elapsed.components.seconds) + Double(progress.elapsed.components.attoseconds) / 1e18
        var text = "\(interrupted ? "interrupted: " : "")\(progress.done) of \(progress.found) photos: "
            + "\(progress.rendered) rendered, \(progress.fresh) fresh, \(progress.skippedFailures) known failures skipped"
        if progress.failed > 0 {
            let kinds = progress.failuresByKind.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            text += ", \(progress.failed) failed (\(kinds))"
        }
        text += String(format: "; %d bytes written in %.2f s", progress.bytesWritten, seconds)
        print(text)
    }

    private static func json(_ progress: WarmJob.Progress, event: String) -> String {
        var fields: [String: Any] = [
            "event": event, "done": progress.done, "found": progress.found, "rendered": progress.rendered,
            "fresh": progress.fresh, "skippedFailures": progress.skippedFailures, "failed": progress.failed,
            "bytesWritten": progress.bytesWritten, "rate": (progress.rate * 10).rounded() / 10,
            "failuresByKind": Dictionary(uniqueKeysWithValues: progress.failuresByKind.map { ($0.key.rawValue, $0.value) }),
        ]
        if let left = progress.estimatedSecondsLeft { fields["secondsLeft"] = left.rounded() }
        let data = (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data()
        return String(decoding: data, as: UTF8.self)
    }
}

/// The last progress seen and when the display last changed. Guarded by its lock.
private final class LockedProgress: @unchecked Sendable {
    private let lock = NSLock()
    private var latest: WarmJob.Progress?
    private var shown = ContinuousClock.now - .seconds(1)

    var last: WarmJob.Progress? { lock.withLock { latest } }

    /// Keeps `progress`; true when it is time to show it.
    func record(_ progress: WarmJob.Progress) -> Bool {
        lock.withLock {
            latest = progress
            guard shown.duration(to: .now) >= .milliseconds(200) else { return false }
            shown = .now
            return true
        }
    }
}

/// The first Ctrl-C (SIGINT) runs `handler` (a clean stop) instead of killing the process; a
/// second one exits at once with status 130, in case the clean stop itself is stuck (waiting
/// for another process's cache lock, say). Until disarmed.
final class Interrupt {
    private let source: DispatchSourceSignal

    init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let presses = Locked(0)
        source.setEventHandler {
            let count = presses.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 1 {
                FileHandle.standardError.write(Data("\nthumbs: stopping; committing what is done (Ctrl-C again to quit at once)\n".utf8))
                handler()
            } else {
                _exit(130)
            }
        }
        source.resume()
    }

    func disarm() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Runs `work` so that Ctrl-C stops it cleanly: then `onInterrupt` runs and the command
    /// exits with status 130. A cache failure exits with status 3.
    static func run<T: Sendable>(
        onInterrupt: () -> Void = {}, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await work() }
        let interrupt = Interrupt { task.cancel() }
        let outcome = await task.result
        interrupt.disarm()
        switch outcome {
        case .success(let value):
            return value
        case .failure(is CancellationError):
            onInterrupt()
            ThumbsCommand.exit(withError: ExitCode(130))
        case .failure(let error as StoreError):
            CommandFailure.cache("cache: \(error)").exit()
        case .failure(let error):
            throw error
        }
    }
}

/// A value shared between threads, guarded by its lock.
final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.withLock { body(&value) }
    }
}
