import ArgumentParser
import Foundation
import Thumbs

/// Options of the commands that work on the cache alone.
struct CacheOptions: ParsableArguments {
    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func configuration() throws -> StoreConfiguration {
        try loadOrExit(options).store(path: options.cache)
    }

    /// Opens the cache, or ends the command with exit status 3.
    func open() throws -> ThumbnailStore {
        let configuration = try configuration()
        do {
            return try ThumbnailStore(configuration: configuration)
        } catch {
            CommandFailure.cache(configuration.path, error).exit()
        }
    }

    /// Runs `body`; a store failure ends the command with status 3.
    func orExit<T>(_ body: () async throws -> T) async -> T {
        do {
            return try await body()
        } catch {
            CommandFailure.cache(try? configuration().path, error).exit()
        }
    }

    func emit(_ fields: [String: Any], text: String) {
        if json {
            let data =
                (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys, .prettyPrinted])) ?? Data()
            print(String(decoding: data, as: UTF8.self))
        } else {
            print(text)
        }
    }
}
