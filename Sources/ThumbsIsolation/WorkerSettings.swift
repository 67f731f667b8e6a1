import ThumbsCore
import ThumbsImaging
import ThumbsRendering
import ThumbsSupport

/// What a worker is given as it starts, the first message on its socket (in the wire format,
/// as requests are): the limits of its renders.
package struct WorkerSettings: Sendable, Equatable {
    /// ``/ThumbsRendering/ImagingConfiguration/pixelLimit``.
    var pixelLimit: Int
    /// The worker's share of ``/ThumbsRendering/ImagingConfiguration/decodeMemoryBudget``: its
    /// decode budget, and what its address-space limit allows beyond the worker's own needs.
    var decodeMemoryBudget: ByteCount
    /// ``/ThumbsRendering/ImagingConfiguration/decodeTimeLimit``, which the worker's video and RAW
    /// decoders keep (the renderer kills a worker that overstays it on any file).
    var decodeTimeLimit: Duration
    /// The decoding libraries the worker opens before it confines itself: those the files it is
    /// started for need (``RenderWorkerSlots``), none for JPEGs alone. A file that needs another
    /// fails as ``/ThumbsCore/ImagingError/libraryUnavailable(_:)``, and the renderer tries a
    /// JPEG that needs libvips again on a worker that opens it.
    package var libraries: Set<DecodingLibrary>

    init(
        pixelLimit: Int, decodeMemoryBudget: ByteCount, decodeTimeLimit: Duration,
        libraries: Set<DecodingLibrary> = []
    ) {
        self.pixelLimit = pixelLimit
        self.decodeMemoryBudget = decodeMemoryBudget
        self.decodeTimeLimit = decodeTimeLimit
        self.libraries = libraries
    }

    /// These settings with `libraries` to open.
    package func opening(_ libraries: Set<DecodingLibrary>) -> WorkerSettings {
        var settings = self
        settings.libraries = libraries
        return settings
    }

    /// A renderer's settings shared among `configuration.workers` workers: each gets its share
    /// of the decode budget, but at least ``smallestShare`` (or the whole budget, when that is
    /// smaller), so that a photo the in-process renderer decodes is decoded in a worker too.
    package init(sharing configuration: ImagingConfiguration) {
        let budget = configuration.decodeMemoryBudget
        let share = ByteCount(budget.bytes / Int64(configuration.workers))
        self.init(
            pixelLimit: configuration.pixelLimit, decodeMemoryBudget: min(budget, max(Self.smallestShare, share)),
            decodeTimeLimit: configuration.decodeTimeLimit)
    }

    /// The least decode memory a worker gets: a 24 MP camera RAW file's half-size decode, a 4K
    /// video's frame or a progressive JPEG of 50 MP fit in it. With many workers, the workers'
    /// shares may together pass the budget; the in-process renderer's large decodes wait for
    /// each other instead.
    static let smallestShare = ByteCount(512 << 20)

    /// The settings as the worker reads them.
    func encoded() -> [UInt8] {
        var writer = WireWriter()
        writer.u64(UInt64(clamping: pixelLimit))
        writer.i64(decodeMemoryBudget.bytes)
        let (seconds, attoseconds) = decodeTimeLimit.components
        let (milliseconds, overflow) = UInt64(clamping: seconds).multipliedReportingOverflow(by: 1000)
        writer.u64(overflow ? .max : milliseconds + UInt64(clamping: attoseconds / 1_000_000_000_000_000))
        writer.count(libraries.count)
        for library in libraries.map(\.rawValue).sorted() { writer.string(library) }
        return writer.framed()
    }

    /// The settings a worker was sent; nil unless they are all there and valid.
    init?(decoding message: [UInt8]) {
        var reader = WireReader(message)
        do throws(WireError) {
            let pixelLimit = try reader.u64(), budget = try reader.i64(), milliseconds = try reader.u64()
            var libraries: Set<DecodingLibrary> = []
            for _ in 0..<(try reader.count(atMost: DecodingLibrary.allCases.count)) {
                guard let library = DecodingLibrary(rawValue: try reader.string()) else { return nil }
                libraries.insert(library)
            }
            guard (1...UInt64(PixelSize.largestPixelCount)).contains(pixelLimit), budget > 0,
                (1...UInt64(Int64.max / 1_000_000)).contains(milliseconds)
            else { return nil }
            self.init(
                pixelLimit: Int(pixelLimit), decodeMemoryBudget: ByteCount(budget),
                decodeTimeLimit: .milliseconds(Int64(milliseconds)), libraries: libraries)
        } catch {
            return nil
        }
    }
}
