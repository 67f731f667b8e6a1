import ThumbsImaging
import ThumbsRendering
import ThumbsSupport

/// What a worker is started with, on its command line: the limits of its renders.
package struct WorkerSettings: Sendable, Equatable {
    /// ``/ThumbsRendering/ImagingConfiguration/pixelLimit``.
    var pixelLimit: Int
    /// The worker's share of ``/ThumbsRendering/ImagingConfiguration/decodeMemoryBudget``: its decode budget, and
    /// what its address-space limit allows beyond the worker's own needs.
    var decodeMemory: Int
    /// ``/ThumbsRendering/ImagingConfiguration/decodeTimeLimit``, which the worker's video and RAW decoders keep
    /// (the renderer kills a worker that overstays it on any file).
    var decodeTimeLimit: Duration
    /// The decoding libraries the worker opens before it confines itself, besides libvips: those
    /// the files it is started for need (``RenderWorkerSlots``). A file that needs another fails
    /// as ``/ThumbsCore/ImagingError/libraryUnavailable(_:)``.
    package var libraries: Set<DecodingLibrary>

    init(pixelLimit: Int, decodeMemory: Int, decodeTimeLimit: Duration, libraries: Set<DecodingLibrary> = [.libvips]) {
        self.pixelLimit = pixelLimit
        self.decodeMemory = decodeMemory
        self.decodeTimeLimit = decodeTimeLimit
        self.libraries = libraries.union([.libvips])
    }

    /// These settings with `libraries` to open.
    package func opening(_ libraries: Set<DecodingLibrary>) -> WorkerSettings {
        var settings = self
        settings.libraries = libraries.union([.libvips])
        return settings
    }

    /// A renderer's settings shared among `configuration.workers` workers: each gets its share
    /// of the decode budget, but at least ``smallestShare`` (or the whole budget, when that is
    /// smaller), so that a photo the in-process renderer decodes is decoded in a worker too.
    package init(sharing configuration: ImagingConfiguration) {
        let budget = configuration.decodeMemoryBudget
        self.init(
            pixelLimit: configuration.pixelLimit,
            decodeMemory: min(budget, max(Self.smallestShare, budget / configuration.workers)),
            decodeTimeLimit: configuration.decodeTimeLimit)
    }

    /// The least decode memory a worker gets: a 24 MP camera RAW file's half-size decode, a 4K
    /// video's frame or a progressive JPEG of 50 MP fit in it. With many workers, the workers'
    /// shares may together pass the budget; the in-process renderer's large decodes wait for
    /// each other instead.
    static let smallestShare = 512 << 20

    package var arguments: [String] {
        [
            "--pixel-limit", "\(pixelLimit)", "--decode-memory", "\(decodeMemory)",
            "--decode-time-limit-ms", "\(Int((decodeTimeLimit.seconds * 1000).rounded()))",
            "--libraries", libraries.map(\.rawValue).sorted().joined(separator: ","),
        ]
    }

    /// The settings in a worker's `arguments`; nil when they are not all there and valid.
    package init?(arguments: [String]) {
        func value(_ flag: String) -> Int? {
            arguments.firstIndex(of: flag).flatMap { $0 + 1 < arguments.count ? Int(arguments[$0 + 1]) : nil }
        }
        guard let pixelLimit = value("--pixel-limit"), pixelLimit > 0,
            let decodeMemory = value("--decode-memory"), decodeMemory > 0,
            let milliseconds = value("--decode-time-limit-ms"), milliseconds > 0,
            let named = arguments.firstIndex(of: "--libraries").flatMap({
                $0 + 1 < arguments.count ? arguments[$0 + 1].split(separator: ",") : nil
            }),
            case let libraries = named.compactMap({ DecodingLibrary(rawValue: String($0)) }),
            libraries.count == named.count
        else { return nil }
        self.init(
            pixelLimit: pixelLimit, decodeMemory: decodeMemory, decodeTimeLimit: .milliseconds(milliseconds),
            libraries: Set(libraries))
    }
}
