import Foundation
import Testing
import ThumbsCore
import ThumbsPipeline
import ThumbsRendering
@testable import ThumbsSettings
import ThumbsCoreTestSupport
import ThumbsStore

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

    /// A setting written twice is an error naming it, not its first value with the second unread.
    @Test func aKeyWrittenTwiceIsAnErrorNamingItsPath() throws {
        for (json, path) in [
            (#"{"workers": 3, "workers": 300}"#, ["workers"]),
            (#"{"serve": {"port": 8080, "port": 99999}}"#, ["serve", "port"]),
        ] {
            let error = #expect(throws: DecodingError.self) { try load(json) }
            guard case .dataCorrupted(let context) = error else {
                Issue.record("\(String(describing: error))")
                continue
            }
            #expect(context.codingPath.map(\.stringValue) == path)
        }
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
        let workingDirectory = FileManager.default.currentDirectoryPath
        #expect(
            configuration.store(path: "here/cache").path == workingDirectory + "/here/cache",
            "a path from the command line is relative to the working directory, as ROOT arguments are")
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

    /// The manager's renditions are the ladder's, so that a request of a rung's box is that rung.
    @Test func thePipelinesRenditionsFollowTheLadder() throws {
        #expect(ThumbsConfiguration().pipeline.renditions == ThumbsConfiguration().renditions.map(\.spec))
        var configuration = try load(#"{"renditions": [{"name": "small", "size": "64x64", "quality": 70}]}"#)
        #expect(
            configuration.pipeline.renditions == [RenditionSpec(size: PixelSize(width: 64, height: 64), quality: 70)])
        configuration.renditions.append(
            Rendition(name: "big", spec: RenditionSpec(size: PixelSize(width: 2048, height: 2048))))
        #expect(configuration.pipeline.renditions == configuration.renditions.map(\.spec))
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

    /// A rung asks for gain maps by "hdr"; only a JPEG carries one.
    @Test func aRenditionAsksForGainMapsInAJPEG() throws {
        let rendition = try load(#"{"renditions": [{"name": "hdr", "size": "512x512", "hdr": "gainmap"}]}"#)
            .renditions[0]
        #expect(rendition.spec == RenditionSpec(size: PixelSize(width: 512, height: 512), hdr: .gainMap))
        let encoded = try JSONEncoder().encode(rendition)
        #expect(try JSONDecoder().decode(Rendition.self, from: encoded) == rendition)
        #expect(
            errorPath(#"{"renditions": [{"name": "a", "size": "8x8", "format": "png", "hdr": "gainmap"}]}"#)
                == ".renditions[0].hdr")
        #expect(throws: DecodingError.self) {
            try load(#"{"renditions": [{"name": "a", "size": "8x8", "hdr": "pq"}]}"#)
        }
    }

    @Test func badValuesNameTheirField() throws {
        #expect(throws: DecodingError.self) { try load(#"{"cache": {"budget": "lots"}}"#) }
        #expect(throws: DecodingError.self) { try load(#"{"renditions": [{"name": "a", "size": "99999x1"}]}"#) }
        #expect(throws: DecodingError.self) { try load(#"{"workers": "two"}"#) }
    }

    /// The JSON path of the error `json` gives, as `config` prints it, or nil when it loads.
    private func errorPath(_ json: String) -> String? {
        do {
            _ = try load(json)
            return nil
        } catch {
            guard case .dataCorrupted(let context) = error as? DecodingError else {
                return "not a DecodingError: \(error)"
            }
            return context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        }
    }

    @Test func numbersOutOfTheirRangeAreErrorsNamedByPath() {
        let rendition = #"{"name": "a", "size": "8x8", "quality": QUALITY}"#
        for (json, path) in [
            (
                #"{"renditions": [R]}"#.replacingOccurrences(
                    of: "R", with: rendition.replacingOccurrences(of: "QUALITY", with: "0")), ".renditions[0].quality"
            ),
            (
                #"{"renditions": [R]}"#.replacingOccurrences(
                    of: "R", with: rendition.replacingOccurrences(of: "QUALITY", with: "101")), ".renditions[0].quality"
            ),
            (
                #"{"renditions": [R]}"#.replacingOccurrences(
                    of: "R", with: rendition.replacingOccurrences(of: "QUALITY", with: "80.5")),
                ".renditions[0].quality"
            ),
            (#"{"pixelLimit": 0}"#, ".pixelLimit"), (#"{"pixelLimit": -1}"#, ".pixelLimit"),
            (#"{"pixelLimit": 1e30}"#, ".pixelLimit"),
            (#"{"workers": 100000}"#, ".workers"), (#"{"workers": -3}"#, ".workers"),
            (#"{"workers": "two"}"#, ".workers"),
            (#"{"cache": {"budget": "99999999999 TiB"}}"#, ".cache.budget"),
            (#"{"decodeMemoryBudget": "1 MB"}"#, ".decodeMemoryBudget"),
            (#"{"decodeTimeLimit": 0}"#, ".decodeTimeLimit"), (#"{"decodeTimeLimit": 7200}"#, ".decodeTimeLimit"),
            (#"{"deliveryMode": "fastest"}"#, ".deliveryMode"),
        ] {
            #expect(errorPath(json) == path, "\(json)")
        }
        #expect(errorPath(#"{"workers": 256, "pixelLimit": 1}"#) == nil, "the bounds themselves are accepted")
    }

    @Test func renditionNamesAreSafeUniqueAndPresent() throws {
        func ladder(_ names: [String]) -> String {
            #"{"renditions": ["# + names.map { #"{"name": "\#($0)", "size": "8x8"}"# }.joined(separator: ",") + "]}"
        }
        #expect(errorPath(ladder(["/../../../../escaped"])) == ".renditions[0].name")
        #expect(errorPath(ladder(["grid", ""])) == ".renditions[1].name")
        #expect(errorPath(ladder(["grid", "Grid"])) == ".renditions[1].name", "capitals are not allowed")
        #expect(errorPath(ladder(["a", "b", "a"])) == ".renditions[2].name", "the second of two alike is named")
        #expect(errorPath(ladder(["a.b"])) == ".renditions[0].name")
        #expect(errorPath(ladder([String(repeating: "x", count: 65)])) == ".renditions[0].name")
        #expect(errorPath(#"{"renditions": []}"#) == ".renditions")
        #expect(errorPath(ladder((0...32).map { "r\($0)" })) == ".renditions", "33 renditions")
        #expect(try load(ladder(["grid_2", "preview-large", "x9"])).renditions.count == 3)
    }

    @Test func decodeTimeLimitReachesTheRenderer() throws {
        #expect(try load("{}").imaging.decodeTimeLimit == .seconds(30))
        #expect(try load(#"{"decodeTimeLimit": 2.5}"#).imaging.decodeTimeLimit == .milliseconds(2500))
    }

    @Test func decodeMemoryBudgetReachesTheRenderer() throws {
        #expect(try load("{}").imaging.decodeMemoryBudget == ByteCount(1 << 30))
        #expect(try load(#"{"decodeMemoryBudget": "256 MiB"}"#).imaging.decodeMemoryBudget == ByteCount(256 << 20))
    }
}
