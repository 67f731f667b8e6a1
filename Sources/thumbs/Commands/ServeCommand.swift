import ArgumentParser
import Foundation
import Thumbs
import ThumbsServer

struct ServeCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the cache, the library and a grid page over HTTP.",
        discussion: """
            One process holds the cache and the library: thumbnails are answered from memory or \
            the store, misses are rendered on demand, and the library is watched so that added, \
            changed and removed photos show up without a restart. The JSON API, thumbnail URLs \
            and limits are in docs/HTTP.md; the `serve` section of config.json sets the address, \
            the bearer token and the limits. Loopback only unless told otherwise; an address \
            other than loopback without a token is warned about. Ctrl-C stops (exit status 130).

            Examples:
              thumbs serve ~/Pictures
              thumbs serve ~/Pictures --listen 0.0.0.0:8080 --token-file ~/.config/thumbs/token
              open http://127.0.0.1:8080/
            """)

    @OptionGroup var library: LibraryOptions

    @Option(help: ArgumentHelp("Address to listen on (default: serve.listen, 127.0.0.1:8080).", valueName: "HOST:PORT"))
    var listen: String?

    @Option(help: ArgumentHelp("File holding the bearer token (instead of serve.token).", valueName: "PATH"))
    var tokenFile: String?

    func run() async throws {
        let opened = try await library.open()
        var serve = opened.configuration.serve
        if let listen {
            guard ListenAddress(listen) != nil else {
                throw CommandFailure.usage("--listen \(listen.escapedForTerminal): expected HOST:PORT")
            }
            serve.listen = listen
        }
        if let tokenFile {
            guard let text = try? String(contentsOfFile: tokenFile, encoding: .utf8),
                case let token = text.trimmingCharacters(in: .whitespacesAndNewlines), !token.isEmpty
            else {
                throw CommandFailure.usage("--token-file \(tokenFile.escapedForTerminal): cannot read a token there")
            }
            serve.token = token
        }
        if !serve.address.isLoopback && serve.token == nil {
            printError(
                "warning: \(serve.address) is reachable from other machines and no token is set (serve.token): "
                    + "anyone who can connect sees the library")
        }
        let settings = serve
        let json = library.json
        try await Interrupt.run {
            let server = try await ThumbnailServer(opened, serve: settings, logger: CommandLog.logger)
            try await server.run { address in
                print(json ? JSONEvent.listening(address: address).line : "listening on http://\(address)/")
                fflush(nil)
            }
            // A cancelled server just returns: say it was an interruption.
            try Task.checkCancellation()
        }
    }
}
