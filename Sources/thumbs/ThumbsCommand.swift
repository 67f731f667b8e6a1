import ArgumentParser
import Foundation
import Thumbs

@main
struct ThumbsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thumbs",
        abstract: "Thumbnail generation and caching for photo libraries.",
        discussion: """
            Renders thumbnails with libvips (shrink-on-load, orientation applied, sRGB, metadata \
            stripped). Settings come from config.json; see docs/CONFIGURATION.md.
            """,
        subcommands: [
            WarmCommand.self, WatchCommand.self, GetCommand.self, RenderCommand.self, AlbumsCommand.self, MomentsCommand.self, SizesCommand.self,
            StatsCommand.self, EvictCommand.self, CompactCommand.self, VerifyCommand.self, ContactSheetCommand.self,
            ProbeCommand.self, ConfigCommand.self, SampleLibraryCommand.self, BenchCommand.self,
        ])

    /// Runs the command, mapping usage errors to exit code 2 (ArgumentParser's own is 64), so
    /// every command keeps one table of exit codes: 0 success, 1 some inputs failed, 2 usage or
    /// configuration error.
    static func main() async {
        // Two malloc arenas keep resident memory flat over long runs (docs/BENCHMARKS.md).
        ThumbsProcessTuning.limitMallocArenas()
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }
}

/// Options every command that reads the configuration shares.
struct ConfigurationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Configuration file (default: ./config.json, else $XDG_CONFIG_HOME/thumbs/config.json).",
        valueName: "PATH"))
    var config: String?

    @Option(name: .long, help: ArgumentHelp("Cache folder (overrides cache.path of the configuration).",
                                            valueName: "DIR"))
    var cache: String?

    @Flag(name: .shortAndLong, help: "Say more: which configuration, cache and roots are used, and what each step did.")
    var verbose = false

    @Flag(name: .shortAndLong, help: "Say less: no progress, no per-file lines; errors and results only.")
    var quiet = false

    /// The configuration named by `--config`, else the first that exists, else the defaults.
    func load() throws -> ThumbsConfiguration {
        CommandLog.start(verbose: verbose, quiet: quiet)
        let candidates = config.map { [$0] } ?? [
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

/// A failure that ends a command with one line on stderr and a documented exit code.
enum CommandFailure: Error, CustomStringConvertible {
    /// Exit 2: bad arguments or configuration.
    case usage(String)
    /// Exit 1: some inputs failed (each was reported already).
    case someFailed(Int)
    /// Exit 3: the cache could not be opened or used.
    case cache(String)

    var description: String {
        switch self {
        case .usage(let message), .cache(let message): message
        case .someFailed(let count): "\(count) file(s) failed"
        }
    }

    var exitCode: ExitCode {
        switch self {
        case .usage: ExitCode(2)
        case .someFailed: ExitCode(1)
        case .cache: ExitCode(3)
        }
    }

    /// Prints the failure as "thumbs: ..." and exits with its code.
    func exit() -> Never {
        fflush(nil)  // flush stdout first: keep the report's lines before this one when both go to one place
        FileHandle.standardError.write(Data("thumbs: \(self)\n".utf8))
        ThumbsCommand.exit(withError: exitCode)
    }
}

/// Readable text for a configuration decoding error: the JSON path and what was wrong.
enum ConfigurationErrorText {
    static func describe(_ error: any Error) -> String {
        guard let decoding = error as? DecodingError else { return "\(error.localizedDescription)" }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }
            return keys.isEmpty ? "(top level)" : keys.joined()
        }
        switch decoding {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            return "\(path(context)): \(context.debugDescription)"
        case .keyNotFound(let key, let context):
            return "\(path(context)).\(key.stringValue): required field is missing"
        @unknown default:
            return "\(decoding)"
        }
    }
}
