import ArgumentParser
import Foundation
import Logging
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

    /// The configuration named by `--config`, else the first of `ThumbsConfiguration.searchPaths`
    /// that exists, else the defaults.
    func load() throws -> ThumbsConfiguration {
        CommandLog.start(verbose: verbose, quiet: quiet)
        guard let path = config ?? ThumbsConfiguration.foundPath else {
            CommandLog.logger.debug("configuration: none found, using the defaults")
            return ThumbsConfiguration()
        }
        do {
            CommandLog.logger.debug("configuration: \(path)")
            return try ThumbsConfiguration.load(from: path)
        } catch {
            throw CommandFailure.usage("configuration \(path): \(ConfigurationErrorText.describe(error))")
        }
    }
}
