import Glibc
import Logging
import SystemPackage
import ThumbsCore
import ThumbsIsolation
import ThumbsRendering
import ThumbsSettings
import ThumbsSupport

/// One file rendered in this process, confined (``ConfinedRender``), rather than in a render
/// worker: what `thumbs thumbnail`, `thumbs render FILE -o FILE` and `thumbs-thumbnailer` try
/// first, while the process has one thread (Landlock holds only the thread that confines itself
/// and those it starts later). No worker is forked or started, and none greets.
package enum OneFileRender {
    /// The file failed, or its thumbnail could not be written: nothing is left at the output.
    /// `line` says which, as a render worker's failure is said.
    package struct Failure: Error {
        package let line: String
    }

    /// `spec` of the file at `path` rendered in this process, confined, and written to `output`
    /// (beside it first, then renamed onto it); nil when the configuration (isolation other than
    /// `"process"`) or the kernel asks for the usual renderer. A decoder that faults, makes a call
    /// the filter refuses, runs out of memory or time ends the process with status 1 and the line
    /// a render worker's death gives, after `program`'s name.
    package static func render(
        _ path: String, spec: RenditionSpec, to output: String, configuration: ThumbsConfiguration,
        program: String, logger: Logger
    ) throws(Failure) -> Thumbnail? {
        guard configuration.isolation == .process else { return nil }
        if let reason = ConfinedRender.unavailable {
            logger.debug("one file rendered in a render worker: \(reason)")
            return nil
        }
        do {
            return try ConfinedRender.render(
                ImageLocation(path: path), spec: spec, to: FilePath(output),
                settings: WorkerSettings(sharing: configuration.imaging),
                deathLine: { error in "\(program): \(line(path, error).escapedForTerminal)\n" },
                confined: { confinement in
                    logger.debug(
                        "rendered in this process (pid \(getpid()), no render worker), confined by \(confinement)")
                })
        } catch {
            switch error {
            case .file(let error): throw Failure(line: line(path, error))
            case .output(let message): throw Failure(line: message)
            }
        }
    }

    /// A failed file's line, as a command gives it for a render worker's failure.
    package static func line(_ path: String, _ error: ImagingError) -> String {
        "\(path): \(error.kind.rawValue): \(error)"
    }
}
