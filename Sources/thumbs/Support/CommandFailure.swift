import ArgumentParser
import Foundation
import Thumbs

/// A failure that ends a command with one line on stderr and the exit status its case
/// documents. A command throws it out of `run()`: `ThumbsCommand.main` ends the process with it.
enum CommandFailure: Error, CustomStringConvertible {
    /// Exit 1: some inputs failed (each was reported already).
    case someFailed(Int)
    /// Exit 1: the one input the command was given failed, as the line says.
    case inputFailed(String)
    /// Exit 2: bad arguments or configuration.
    case usage(String)
    /// Exit 3: the cache could not be opened or used.
    case cache(String)
    /// Exit 130: interrupted (Ctrl-C), with nothing more to say.
    case interrupted

    var description: String {
        switch self {
        case .usage(let message), .inputFailed(let message), .cache(let message): message
        case .someFailed(let count): "\(count) file(s) failed"
        case .interrupted: "interrupted"
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .someFailed, .inputFailed: ExitCode(1)
        case .usage: ExitCode(2)
        case .cache: ExitCode(3)
        case .interrupted: ExitCode(130)
        }
    }

    /// Prints the failure as "thumbs: ..." (an interruption says nothing) and exits with its
    /// status.
    func exit() -> Never {
        fflush(nil)  // flush stdout first: keep the report's lines before this one when both go to one place
        if case .interrupted = self {} else { printError("\(self)") }
        ThumbsCommand.exit(withError: exitCode)
    }
}

extension CommandFailure {
    /// The failure of a store operation on the cache at `path` (or the cache in use, when
    /// nil), naming the remedy when there is one.
    static func cache(_ path: String?, _ error: any Error) -> CommandFailure {
        let cache = path.map { "cache \($0)" } ?? "cache"
        guard let error = error as? StoreError else { return .cache("\(cache): \(error)") }
        if error.isDamaged {
            return .cache("\(cache) is damaged (\(error)); run `thumbs reset` to move it aside and start a new one")
        }
        if error.isNoSpace { return .cache("\(cache): no space left on the cache's device (\(error.operation))") }
        return .cache("\(cache): \(error)")
    }

    /// The failure of the merge source at `path`: its remedy is the source's, never the
    /// destination's (which a merge leaves as it was).
    static func mergeSource(_ path: String, _ error: any Error) -> CommandFailure {
        guard let error = error as? StoreError, error.isDamaged else { return .cache("source cache \(path): \(error)") }
        return .cache(
            "source cache \(path) is damaged (\(error)); merge without it, or move it aside with "
                + "`thumbs reset --cache \(path)`")
    }
}
