import ArgumentParser
import Foundation
import Thumbs

/// Options every command that reads the configuration shares.
struct ConfigurationOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Configuration file (default: ./config.json, else $XDG_CONFIG_HOME/thumbs/config.json).",
            valueName: "PATH"))
    var config: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Cache folder (overrides cache.path of the configuration).",
            valueName: "DIR"))
    var cache: String?

    @Flag(name: .shortAndLong, help: "Say more: which configuration, cache and roots are used, and what each step did.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Say less: no progress, no per-file lines; errors and results only.")
    var quiet = false

    /// The configuration named by `--config`, else the first that exists, else the defaults.
    func load() throws -> ThumbsConfiguration {
        CommandLog.start(verbose: verbose, quiet: quiet)
        let candidates =
            config.map { [$0] } ?? [
                "config.json",
                (ProcessInfo.processInfo.environment["XDG_CONFIG_HOME"]
                    ?? FileManager.default.homeDirectoryForCurrentUser.path + "/.config") + "/thumbs/config.json",
            ]
        for path in candidates where config != nil || FileManager.default.fileExists(atPath: path) {
            do {
                CommandLog.logger.debug("configuration: \(path)")
                return try ThumbsConfiguration.load(from: path)
            } catch {
                throw CommandFailure.usage("configuration \(path): \(ConfigurationErrorText.describe(error))")
            }
        }
        CommandLog.logger.debug("configuration: none found, using the defaults")
        return ThumbsConfiguration()
    }
}

/// The renderer `configuration` asks for (its isolation), or the command ends with a clear line
/// (the worker program is missing). Decodes in this process are noted in `journal`. Render
/// workers on a kernel that lacks Landlock or seccomp run without it, and the command says so.
func rendererOrExit(_ configuration: ThumbsConfiguration, journal: (any DecodeJournal)? = nil) -> any ThumbnailRendering
{
    do {
        let renderer = try configuration.renderer(journal: journal)
        let missing = WorkerConfinement.available.missing
        if configuration.isolation == .process, !missing.isEmpty {
            printError("render workers run without \(missing.joined(separator: " and ")): this kernel lacks it")
        }
        return renderer
    } catch {
        CommandFailure.usage(
            "\(error.kind.rawValue): \(error) (isolation \"none\" in config.json renders in this process instead)"
        ).exit()
    }
}

/// Loads the configuration, or ends the command with exit code 2 and one line.
func loadOrExit(_ options: ConfigurationOptions) throws -> ThumbsConfiguration {
    do {
        return try options.load()
    } catch let failure as CommandFailure {
        failure.exit()
    }
}
