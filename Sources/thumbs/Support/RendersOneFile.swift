import Thumbs
import ThumbsOneFile

/// A command that may render its one file in its own process, confined (``OneFileRender``),
/// rather than in a render worker. The command line asks it first thing, while the process has
/// one thread.
protocol RendersOneFile {
    /// Renders this command line's one file confined, and returns true; false when the command line
    /// names more, the configuration renders in this process unconfined (isolation `"none"`) or
    /// this kernel cannot confine the process: the command then runs as usual.
    func renderConfined() throws -> Bool
}

extension OneFileRender {
    /// ``OneFileRender/render(_:spec:to:configuration:program:logger:)`` as a command calls it:
    /// its failure is the command's (exit status 1), its notes go to the command's log.
    static func render(
        _ path: String, spec: RenditionSpec, to output: String, configuration: ThumbsConfiguration
    ) throws -> Thumbnail? {
        do {
            return try render(
                path, spec: spec, to: output, configuration: configuration, program: "thumbs",
                logger: CommandLog.logger)
        } catch {
            throw CommandFailure.inputFailed(error.line)
        }
    }
}
