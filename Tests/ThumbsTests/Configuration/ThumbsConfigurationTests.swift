import Foundation
import Testing
@testable import Thumbs

@Suite struct ThumbsConfigurationTests {
    let folder = TemporaryFolder()

    private func load(_ json: String) throws -> ThumbsConfiguration {
        try ThumbsConfiguration.load(from: try folder.write(Array(json.utf8), to: "config.json"))
    }

    @Test func emptyConfigurationIsTheDefaults() throws {
        let configuration = try load("{}")
        #expect(configuration.renditions.map(\.name) == ["grid", "preview"])
        #expect(configuration.cache.budgetBytes == ByteCount(2 << 30))
        #expect(configuration.pixelLimit == 100_000_000)
    }

    @Test func repositoryConfigIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let configuration = try ThumbsConfiguration.load(from: root.appendingPathComponent("config.json").path)
        #expect(configuration.renditions.count == 2)
    }

    @Test func budgetAndPathsReachTheStore() throws {
        let configuration = try load(#"{"cache": {"path": "cache", "budget": "500 MB"}}"#)
        let store = configuration.store()
        #expect(store.path == folder.path + "/cache", "relative to the configuration file")
        #expect(store.budget == ByteCount(500_000_000))
        #expect(configuration.store(path: "/elsewhere").path == "/elsewhere")
        #expect(configuration.resolve("~/x") == FileManager.default.homeDirectoryForCurrentUser.path + "/x")
    }

    @Test func unknownKeysAreErrorsNamedByPath() throws {
        for (json, path) in [(#"{"librari": {}}"#, "librari"), (#"{"cache": {"budgett": "1 GB"}}"#, "cache.budgett"),
                             (#"{"renditions": [{"name": "a", "size": "1x1", "qualty": 3}]}"#, "renditions.0.qualty")] {
            do {
                _ = try load(json)
                Issue.record("\(json) was accepted")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(context.codingPath.map(\.stringValue).joined(separator: ".") == path)
                #expect(context.debugDescription.hasPrefix("unknown key"))
            }
        }
    }

    @Test func badValuesNameTheirField() throws {
        #expect(throws: DecodingError.self) { try load(#"{"cache": {"budget": "lots"}}"#) }
        #expect(throws: DecodingError.self) { try load(#"{"renditions": [{"name": "a", "size": "99999x1"}]}"#) }
        #expect(throws: DecodingError.self) { try load(#"{"workers": "two"}"#) }
    }
}
