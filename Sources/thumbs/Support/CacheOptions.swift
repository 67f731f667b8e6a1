import ArgumentParser
import Foundation
import Thumbs

/// Options of the commands that work on the cache alone.
struct CacheOptions: ParsableArguments {
    @Flag(help: "Print one JSON document instead of text.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func configuration() throws -> StoreConfiguration {
        try options.load().store(path: options.cache)
    }

    /// Opens the cache; a failure is the command's, with exit status 3.
    func open() throws -> ThumbnailStore {
        let configuration = try configuration()
        do {
            return try ThumbnailStore(configuration: configuration)
        } catch {
            throw CommandFailure.cache(configuration.path, error)
        }
    }

    /// Runs `body`; a store failure is the command's, with exit status 3.
    func perform<T>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw CommandFailure.cache(try? configuration().path, error)
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
