import Foundation
import ThumbsCore
import ThumbsPipeline
import ThumbsRendering
import ThumbsStore
import ThumbsSupport

/// The settings of a Thumbs installation, as read from `config.json`.
///
/// Every field has a documented default and may be left out, in every section, so `{}` is a
/// valid configuration; see `docs/CONFIGURATION.md` for each field. `LibraryFactory` (Thumbs) opens the
/// store, renderer and library it describes.
/// ```swift
/// let configuration = try ThumbsConfiguration.load(from: "config.json")
/// ```
public struct ThumbsConfiguration: Sendable, Hashable, Codable {
    public struct Library: Sendable, Hashable, Codable {
        /// Folders whose photos make up the library. `~` is the home folder; relative paths are
        /// relative to the configuration file. Default: `["~/Pictures"]`.
        public var roots: [String] = ["~/Pictures"]
        /// Whether files and folders whose names start with "." are read. Default: false.
        public var includeHidden: Bool = false

        public init() {}

        enum CodingKeys: String, KnownKeys {
            case roots, includeHidden
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            roots = try container.decodeIfPresent([String].self, forKey: .roots) ?? roots
            includeHidden = try container.decodeIfPresent(Bool.self, forKey: .includeHidden) ?? includeHidden
        }
    }

    public struct Cache: Sendable, Hashable, Codable {
        /// Folder of the thumbnail cache. Default: `~/.cache/thumbs`.
        public var path: String = "~/.cache/thumbs"
        /// Byte budget of the cache, written like "2 GiB". Default:
        /// ``/ThumbsStore/StoreConfiguration/defaultBudget``.
        public var budget = StoreConfiguration.defaultBudget

        public init() {}

        enum CodingKeys: String, KnownKeys {
            case path, budget
        }

        public init(from decoder: any Decoder) throws {
            try decoder.rejectUnknownKeys(CodingKeys.self)
            let container = try decoder.container(keyedBy: CodingKeys.self)
            path = try container.decodeIfPresent(String.self, forKey: .path) ?? path
            budget = try container.decodeIfPresent(ByteCount.self, forKey: .budget) ?? budget
        }
    }

    public var library = Library()
    public var cache = Cache()
    /// The rendition ladder. Default: a 256×256 fill grid cell and a 1024×1024 fit preview.
    /// ``pipeline``'s renditions follow it: a request of a rung's box and mode is that rung.
    public var renditions: [Rendition] = [
        Rendition(
            name: "grid",
            spec: RenditionSpec(
                size: PixelSize(width: 256, height: 256),
                contentMode: .aspectFill, quality: 80)),
        Rendition(
            name: "preview",
            spec: RenditionSpec(
                size: PixelSize(width: 1024, height: 1024),
                contentMode: .aspectFit, quality: 85)),
    ]
    {
        didSet { pipeline.renditions = renditions.map(\.spec) }
    }
    /// The imaging layer's settings: `workers`, `pixelLimit`, `decodeMemoryBudget` and
    /// `decodeTimeLimit` in `config.json`, defaults from ``/ThumbsRendering/ImagingConfiguration``.
    public var imaging = ImagingConfiguration()
    /// Where files are decoded: `"process"`, in confined worker processes, where a fault or a
    /// runaway decoder costs one file; `"none"`, in the process that asked (no worker to start,
    /// and nothing to contain a fault). Default: process.
    public var isolation: RenderIsolation = .process
    /// The manager's settings: `deliveryMode` in `config.json`, the renditions of ``renditions``,
    /// defaults from ``/ThumbsPipeline/PipelineConfiguration``.
    public var pipeline = PipelineConfiguration()
    /// What `thumbs serve` listens on, and its limits.
    public var serve = ServeConfiguration()

    public init() {
        pipeline.renditions = renditions.map(\.spec)
    }

    enum CodingKeys: String, KnownKeys {
        case library, cache, renditions, workers, pixelLimit, decodeMemoryBudget, decodeTimeLimit, isolation,
            deliveryMode, serve
    }

    /// The most renditions a ladder may have: each photo is decoded once for all of them, and
    /// every rendition's pixels are held until the photo is done.
    public static let maximumRenditions = 32

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let defaults = ThumbsConfiguration()
        let container = try decoder.container(keyedBy: CodingKeys.self)
        library = try container.decodeIfPresent(Library.self, forKey: .library) ?? defaults.library
        cache = try container.decodeIfPresent(Cache.self, forKey: .cache) ?? defaults.cache
        renditions = try Self.decodeRenditions(container) ?? defaults.renditions
        pipeline.renditions = renditions.map(\.spec)
        if let workers = try container.decodeInteger(.workers, in: 0...ImagingConfiguration.maximumWorkers) {
            self.workers = workers
        }
        if let pixelLimit = try container.decodeInteger(.pixelLimit, in: 1...ImagingConfiguration.maximumPixelLimit) {
            self.pixelLimit = pixelLimit
        }
        if let budget = try container.decodeIfPresent(ByteCount.self, forKey: .decodeMemoryBudget) {
            guard budget >= ImagingConfiguration.minimumDecodeMemoryBudget else {
                throw DecodingError.dataCorruptedError(
                    forKey: .decodeMemoryBudget, in: container,
                    debugDescription:
                        "expected at least \(ImagingConfiguration.minimumDecodeMemoryBudget), found \(budget)"
                )
            }
            decodeMemoryBudget = budget
        }
        if let seconds = try container.decodeSeconds(.decodeTimeLimit, in: 0.1...3600) { decodeTimeLimit = seconds }
        isolation = try container.decodeIfPresent(RenderIsolation.self, forKey: .isolation) ?? defaults.isolation
        if let mode = try container.decodeIfPresent(DeliveryMode.self, forKey: .deliveryMode) { deliveryMode = mode }
        serve = try container.decodeIfPresent(ServeConfiguration.self, forKey: .serve) ?? defaults.serve
    }

    /// Writes the keys ``init(from:)`` reads, each section and setting with its value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(library, forKey: .library)
        try container.encode(cache, forKey: .cache)
        try container.encode(renditions, forKey: .renditions)
        try container.encode(workers, forKey: .workers)
        try container.encode(pixelLimit, forKey: .pixelLimit)
        try container.encode(decodeMemoryBudget, forKey: .decodeMemoryBudget)
        try container.encode(decodeTimeLimit, forKey: .decodeTimeLimit)
        try container.encode(isolation, forKey: .isolation)
        try container.encode(deliveryMode, forKey: .deliveryMode)
        try container.encode(serve, forKey: .serve)
    }

    /// The ladder: 1 to ``maximumRenditions`` renditions with distinct names.
    private static func decodeRenditions(_ container: KeyedDecodingContainer<CodingKeys>) throws -> [Rendition]? {
        guard container.contains(.renditions) else { return nil }
        var list = try container.nestedUnkeyedContainer(forKey: .renditions)
        guard let count = list.count, (1...maximumRenditions).contains(count) else {
            throw DecodingError.dataCorruptedError(
                forKey: .renditions, in: container,
                debugDescription: "expected 1 to \(maximumRenditions) renditions, found \(list.count ?? 0)")
        }
        var renditions: [Rendition] = []
        while !list.isAtEnd {
            let rendition = try list.decode(Rendition.self)
            if renditions.contains(where: { $0.name == rendition.name }) {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: list.codingPath + [IndexKey(renditions.count), Rendition.CodingKeys.name],
                        debugDescription: "a rendition named \"\(rendition.name)\" comes earlier: names must differ"))
            }
            renditions.append(rendition)
        }
        return renditions
    }

    /// The folder paths are resolved against when relative.
    public private(set) var baseDirectory: String?

    /// Reads and decodes the file at `path`. Unknown keys, and keys written twice in one object,
    /// are errors (a misspelt or repeated key must not be silently ignored), named by their JSON
    /// path.
    public static func load(from path: String) throws -> ThumbsConfiguration {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        try DuplicateKeyCheck.check(data)
        var configuration = try JSONDecoder().decode(ThumbsConfiguration.self, from: data)
        configuration.baseDirectory = URL(fileURLWithPath: path).deletingLastPathComponent().path
        return configuration
    }

    /// Where a program looks for its configuration when none is named, first found first:
    /// `config.json` in the working directory, else `$XDG_CONFIG_HOME/thumbs/config.json`
    /// (`~/.config/thumbs/config.json`). With none, the defaults apply.
    public static var searchPaths: [String] {
        // getenv, not ProcessInfo's environment (a dictionary of every variable) or the user
        // database: the desktop's thumbnailer looks on every call, and starts in milliseconds.
        func variable(_ name: String) -> String? {
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        let configHome =
            variable("XDG_CONFIG_HOME")
            ?? (variable("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path) + "/.config"
        return ["config.json", configHome + "/thumbs/config.json"]
    }

    /// The first of ``searchPaths`` that names a file; nil when none does, and the defaults apply.
    public static var foundPath: String? {
        searchPaths.first { access($0, F_OK) == 0 }
    }

    /// The store settings this configuration implies: `cache.path` (or `path`, when given, as
    /// `--cache` does) and `cache.budget`.
    ///
    /// `cache.path` is read from the file, so a relative one is relative to the file's folder;
    /// `path` comes from the command line, so a relative one is relative to the working
    /// directory, as every other path a command is given.
    public func store(path override: String? = nil) -> StoreConfiguration {
        StoreConfiguration(
            path: override.map { Self.absolute(Self.expandingTilde($0), against: nil) } ?? resolve(cache.path),
            budget: cache.budget)
    }

    /// `path` with `~` expanded and, when relative, resolved against the configuration's folder.
    public func resolve(_ path: String) -> String {
        Self.absolute(Self.expandingTilde(path), against: baseDirectory)
    }

    private static func expandingTilde(_ path: String) -> String {
        guard path == "~" || path.hasPrefix("~/") else { return path }
        return FileManager.default.homeDirectoryForCurrentUser.path + path.dropFirst()
    }

    /// `path` made absolute against `base`, or the working directory when `base` is nil.
    private static func absolute(_ path: String, against base: String?) -> String {
        let joined = path.hasPrefix("/") || base == nil ? path : base! + "/" + path
        return URL(fileURLWithPath: joined).standardizedFileURL.path
    }
}
