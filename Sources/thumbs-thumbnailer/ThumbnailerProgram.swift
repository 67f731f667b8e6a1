import Foundation
import Logging
import ThumbsOneFile
import ThumbsSettings
import ThumbsSupport

/// What `thumbs-thumbnailer` does: its one file rendered in this process, confined
/// (``OneFileRender``), and written to OUTPUT; exit status 0, or 1 with a line on stderr when
/// the file fails.
///
/// Everything else is `thumbs thumbnail`'s, run in this process's place (`exec`) with the same
/// arguments: a command line it does not take, a configuration that does not load or renders
/// unconfined (isolation `"none"`), a kernel or sandbox without Landlock (where the command
/// renders in a render worker). So the two programs answer alike, and the rarer paths live in
/// one place.
enum ThumbnailerProgram {
    static let name = "thumbs-thumbnailer"

    static func run(_ arguments: [String]) -> Int32 {
        guard let parsed = ThumbnailerArguments(arguments), let configuration = loadedConfiguration() else {
            return handOver(arguments)
        }
        let path: String
        do {
            path = try DesktopThumbnailer.path(of: parsed.input)
        } catch {
            return handOver(arguments)
        }
        let logger = logger(verbose: parsed.verbose)
        do {
            let written = try OneFileRender.render(
                path, spec: DesktopThumbnailer.spec(size: parsed.size), to: parsed.output,
                configuration: configuration, program: name, logger: logger)
            return written == nil ? handOver(arguments) : 0
        } catch {
            printError(error.line)
            return 1
        }
    }

    /// The configuration `thumbs thumbnail` would use; nil when one is found but does not load
    /// (the command says why).
    private static func loadedConfiguration() -> ThumbsConfiguration? {
        guard let path = ThumbsConfiguration.foundPath else { return ThumbsConfiguration() }
        return try? ThumbsConfiguration.load(from: path)
    }

    private static func logger(verbose: Bool) -> Logger {
        var logger = Logger(label: name) { label in StreamLogHandler.standardError(label: label) }
        logger.logLevel = verbose ? .debug : .notice
        return logger
    }

    /// Runs `thumbs thumbnail ARGUMENTS` in this process's place: `thumbs` beside this program,
    /// or as `THUMBS_COMMAND` names it. Returns only when that fails, with status 2.
    private static func handOver(_ arguments: [String]) -> Int32 {
        guard let program = commandProgram else {
            printError("cannot find the thumbs command beside this program")
            return 2
        }
        let argv = (["thumbs", "thumbnail"] + arguments).map { strdup($0) }
        defer { argv.forEach { free($0) } }
        execv(program, argv + [nil])
        let reason = String(cString: strerror(errno))
        printError("cannot run \(program): \(reason)")
        return 2
    }

    private static var commandProgram: String? {
        if let named = ProcessInfo.processInfo.environment["THUMBS_COMMAND"], !named.isEmpty { return named }
        guard let running = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") else {
            return nil
        }
        return URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("thumbs").path
    }

    private static func printError(_ line: String) {
        FileHandle.standardError.write(Data("\(name): \(line.escapedForTerminal)\n".utf8))
    }
}
