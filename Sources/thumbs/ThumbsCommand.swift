import ArgumentParser
import Foundation
import Thumbs
import ThumbsProcessTuning

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
            WarmCommand.self, WatchCommand.self, GetCommand.self, RenderCommand.self, AlbumsCommand.self,
            MomentsCommand.self, SizesCommand.self,
            StatsCommand.self, EvictCommand.self, CompactCommand.self, VerifyCommand.self, MergeCommand.self,
            ResetCommand.self,
            ContactSheetCommand.self,
            ServeCommand.self, FreedesktopCommand.self, ThumbnailCommand.self, ProbeCommand.self, ConfigCommand.self,
            SampleLibraryCommand.self, BenchCommand.self,
            VersionCommand.self,
        ])

    /// Runs the command, mapping usage errors to exit code 2 (ArgumentParser's own is 64), so
    /// every command keeps one table of exit codes: 0 success, 1 some inputs failed, 2 usage or
    /// configuration error, 3 cache error, 130 interrupted. A ``CommandFailure`` thrown out of a
    /// command ends it with its line and its status.
    static func main() async {
        // Two malloc arenas keep resident memory flat over long runs, and large decode buffers are
        // reused rather than mapped afresh for every photo (docs/BENCHMARKS.md).
        ProcessTuning.limitMallocArenas()
        ProcessTuning.keepFreedAllocations()
        ProcessTuning.startLibvipsWithoutModules()
        FatalSignalNote.install()
        do {
            var command = try parseAsRoot()
            // Before anything starts a thread: confinement holds the whole process, and a fork is
            // safe, only while there is one.
            if try renderedConfined(command) { return }
            if type(of: command) is any DecodesFiles.Type { PrestartedWorker.fork() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let failure as CommandFailure {
            failure.exit()
        } catch {
            let code = exitCode(for: error)
            guard code == .validationFailure else { exit(withError: error) }
            FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
            exit(withError: ExitCode(2))
        }
    }

    /// Whether `command` rendered its one file in this process, confined (`RendersOneFile`).
    private static func renderedConfined(_ command: any ParsableCommand) throws -> Bool {
        guard let oneFile = command as? any RendersOneFile else { return false }
        return try oneFile.renderConfined()
    }
}
