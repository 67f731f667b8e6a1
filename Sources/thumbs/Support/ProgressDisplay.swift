import Foundation
import Thumbs

/// Progress as a live line on a terminal, or JSON lines.
final class ProgressDisplay: Sendable {
    private let json: Bool
    /// The part of the library being warmed, named in the summary.
    private let shard: LibraryShard?
    /// The last progress seen, and when the display last changed.
    private let state = LockedValue<(latest: WarmJob.Progress?, shown: ContinuousClock.Instant)>(
        (nil, .now - .seconds(1)))

    init(json: Bool, shard: LibraryShard? = nil) {
        self.json = json
        self.shard = shard
    }

    var last: WarmJob.Progress? { state.withLock { $0.latest } }

    /// Shows what `event` says: a failure or a partial render at once, progress at most about
    /// five times a second; of the walk's issues (those that matter are failures), only a root
    /// taken for a disk not mounted, on stderr whatever the format.
    func show(_ event: WarmJob.Event) {
        if CommandLog.isQuiet { return }
        switch event {
        case .progress(let progress): show(progress)
        case .failed(let failure): report(failure)
        case .partial(let asset): warn(partial: asset.path)
        case .issue(let issue):
            guard case .emptyRoot(let listed) = issue.reason else { break }
            let warning =
                "warning: \(issue.root ?? issue.path) holds no file where \(listed) were listed "
                + "(a disk not mounted?): nothing of it is forgotten"
            FileHandle.standardError.write(Data(((json ? "" : "\r\u{1B}[K") + warning.escapedForTerminal + "\n").utf8))
        }
    }

    /// A warning line for a file rendered from what decoded of it: no failure.
    private func warn(partial path: String) {
        if json {
            print(JSONEvent.partial(path: path).line)
            fflush(nil)
        } else {
            let line = "\r\u{1B}[K" + Self.partialWarning(path).escapedForTerminal + "\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    /// The warning line of a partial render, as `warm` and `render` print it.
    static func partialWarning(_ path: String) -> String {
        "warning: \(path): partial: its decode ended early; the thumbnail shows what decoded"
    }

    private func show(_ progress: WarmJob.Progress) {
        // At most about five updates a second.
        let due = state.withLock { state in
            state.latest = progress
            guard state.shown.duration(to: .now) >= .milliseconds(200) else { return false }
            state.shown = .now
            return true
        }
        guard due else { return }
        if json {
            print(JSONEvent.progress(progress).line)
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
    private func report(_ failure: WarmJob.Failure) {
        if json {
            print(JSONEvent.failed(failure).line)
            fflush(nil)
        } else {
            let report = "failed \(failure.path): \(failure.error.kind.rawValue): \(failure.error)"
            let line = "\r\u{1B}[K" + report.escapedForTerminal + "\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
    }

    func finish(_ progress: WarmJob.Progress, interrupted: Bool) {
        if json {
            print((interrupted ? JSONEvent.interrupted(progress, shard: shard) : .summary(progress, shard: shard)).line)
            return
        }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        var text =
            "\(interrupted ? "interrupted: " : "")\(shard.map { "shard \($0): " } ?? "")"
            + "\(progress.done) of \(progress.found) assets: "
            + "\(progress.rendered) rendered, \(progress.fresh) fresh, \(progress.skippedFailures) known failures skipped"
        if progress.partial > 0 { text += ", \(progress.partial) partial" }
        if progress.recognised > 0 { text += ", \(progress.recognised) recognised moved or copied" }
        if progress.forgotten > 0 { text += ", \(progress.forgotten) gone forgotten" }
        if progress.failed > 0 {
            let kinds = progress.failuresByKind.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            text += ", \(progress.failed) failed (\(kinds))"
        }
        text += String(format: "; %d bytes written in %.2f s", progress.bytesWritten, progress.elapsed.seconds)
        print(text)
    }
}
