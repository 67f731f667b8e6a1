import ArgumentParser
import Foundation
import Thumbs
import ThumbsSupport

struct ConfigCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "config",
        abstract: "Print the configuration in effect (defaults filled in).",
        discussion: """
            Examples:
              thumbs config                # the whole configuration, as JSON
              thumbs config --roots        # the library roots, resolved, one per line
            """)

    @Flag(help: "Print only the library roots, with ~ and relative paths resolved.")
    var roots = false

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let configuration = try options.load()
        if roots {
            configuration.library.roots.map(configuration.resolve).forEach { print($0.escapedForTerminal) }
            return
        }
        let encoder = JSONEncoder(style: .document)
        print(String(decoding: try encoder.encode(configuration), as: UTF8.self))
    }
}
