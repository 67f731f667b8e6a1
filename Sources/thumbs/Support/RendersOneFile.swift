import Foundation
import Logging
import SystemPackage
import Thumbs
import ThumbsIsolation

/// A command that may render its one file in its own process, confined (`ConfinedRender`),
/// rather than in a render worker: no worker is forked or started, and none greets. The command
/// line asks it first thing, while the process has one thread (Landlock holds only the thread
/// that confines itself and those it starts later).
protocol RendersOneFile {
    /// Renders this command line's one file confined, and returns true; false when the command line
    /// names more, the configuration renders in this process unconfined (isolation `"none"`) or
    /// this kernel cannot confine the process: the command then runs as usual.
    func renderConfined() throws -> Bool
}

enum OneFileRender {
    /// `spec` of the file at `path` rendered in this process, confined, and written to `output`
    /// (beside it first, then renamed onto it); nil when the configuration or the kernel asks for
    /// the usual renderer. A failure of the file or of the output is the command's, exit status 1;
    /// so is a decoder that faults, makes a call the filter refuses, runs out of memory or time:
    /// the process then ends with the line a render worker's death gives.
    static func render(
        _ path: String, spec: RenditionSpec, to output: String, configuration: ThumbsConfiguration
    ) throws -> Thumbnail? {
        guard configuration.isolation == .process else { return nil }
        if let reason = ConfinedRender.unavailable {
            CommandLog.logger.debug("one file rendered in a render worker: \(reason)")
            return nil
        }
        do {
            return try ConfinedRender.render(
                ImageLocation(path: path), spec: spec, to: FilePath(output),
                settings: WorkerSettings(sharing: configuration.imaging),
                deathLine: { error in "thumbs: \(Self.line(path, error).escapedForTerminal)\n" },
                confined: { confinement in
                    CommandLog.logger.debug(
                        "rendered in this process (pid \(getpid()), no render worker), confined by \(confinement)")
                })
        } catch .file(let error) {
            throw CommandFailure.inputFailed(line(path, error))
        } catch .output(let message) {
            throw CommandFailure.inputFailed(message)
        }
    }

    /// A failed file's line, as the command gives it for a render worker's failure.
    static func line(_ path: String, _ error: ImagingError) -> String {
        "\(path): \(error.kind.rawValue): \(error)"
    }
}
