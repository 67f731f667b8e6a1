import Foundation
import Testing
@testable import Thumbs
import ThumbsTestSupport

@Suite struct ThumbsConfigurationTests {
    let folder = TemporaryFolder()

    private func load(_ json: String) throws -> ThumbsConfiguration {
        try ThumbsConfiguration.load(from: try folder.write(Array(json.utf8), to: "config.json"))
    }

    @Test func emptyConfigurationIsTheDefaults() throws {
        let configuration = try load("{}")
        #expect(configuration.renditions.map(\.name) == ["grid", "preview"])
        #expect(configuration.cache.budget == ByteCount(2 << 30))
        #expect(configuration.deliveryMode == .opportunistic)
        #expect(configuration.pixelLimit == 100_000_000)
    }

    @Test func repositoryConfigIsValid() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
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
        for (json, path) in [
            (#"{"librari": {}}"#, "librari"), (#"{"cache": {"budgett": "1 GB"}}"#, "cache.budgett"),
            (#"{"renditions": [{"name": "a", "size": "1x1", "qualty": 3}]}"#, "renditions.0.qualty"),
        ] {
            do {
                _ = try load(json)
                Issue.record("\(json) was accepted")
            } catch let DecodingError.dataCorrupted(context) {
                #expect(
                    context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
                        == path)
                #expect(context.debugDescription.hasPrefix("unknown key"))
            }
        }
    }

    @Test func everySectionMayBePartial() throws {
        let library = try load(#"{"library": {"roots": ["/p"]}}"#)
        #expect(library.library.roots == ["/p"] && library.library.includeHidden == false)
        let hidden = try load(#"{"library": {"includeHidden": true}}"#)
        #expect(hidden.library.roots == ["~/Pictures"] && hidden.library.includeHidden)
        let cache = try load(#"{"cache": {"budget": "1 GiB"}}"#)
        #expect(cache.cache.path == "~/.cache/thumbs" && cache.cache.budget == ByteCount(1 << 30))
        let path = try load(#"{"cache": {"path": "/c"}}"#)
        #expect(path.cache.path == "/c" && path.cache.budget == ByteCount(2 << 30))
        let rendition = try load(#"{"renditions": [{"name": "small", "size": "64x64"}]}"#).renditions[0]
        #expect(rendition.spec == RenditionSpec(size: PixelSize(width: 64, height: 64)))
        let empty = try load(#"{"library": {}, "cache": {}}"#)
        #expect(empty.library == ThumbsConfiguration.Library() && empty.cache == ThumbsConfiguration.Cache())
    }

    @Test func valuesAreDecodedToTheirTypes() throws {
        let configuration = try load(#"{"deliveryMode": "highQualityFormat", "cache": {"budget": 1048576}}"#)
        #expect(configuration.deliveryMode == .highQualityFormat)
        #expect(configuration.pipeline.deliveryMode == .highQualityFormat, "the manager's default comes from it")
        #expect(configuration.cache.budget == ByteCount(1 << 20))
        #expect(throws: DecodingError.self) { try load(#"{"deliveryMode": "hq"}"#) }
        // What `thumbs config` prints reads back as the same configuration.
        let encoded = try JSONEncoder().encode(configuration)
        let decoded = try JSONDecoder().decode(ThumbsConfiguration.self, from: encoded)
        #expect(decoded.cache == configuration.cache && decoded.deliveryMode == configuration.deliveryMode)
        #expect(decoded.renditions == configuration.renditions && decoded.library == configuration.library)
        #expect(String(decoding: encoded, as: UTF8.self).contains(#""budget":"1 MiB""#))
    }

    @Test func badValuesNameTheirField() throws {
        #expect(throws: DecodingError.self) { try load(#"{"cache": {"budget": "lots"}}"#) }
        #expect(throws: DecodingError.self) { try load(#"{"renditions": [{"name": "a", "size": "99999x1"}]}"#) }
        #expect(throws: DecodingError.self) { try load(#"{"workers": "two"}"#) }
    }
}
