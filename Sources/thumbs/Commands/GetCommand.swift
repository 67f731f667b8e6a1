import ArgumentParser
import Foundation
import Thumbs

struct GetCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Request one thumbnail as an application would, and say when each result came.",
        discussion: """
            PATH is a photo (inside a library root, its cache entries are shared with warm) or an \
            asset id from the library roots. Prints one line per result (degraded, then final), \
            writes the final image to -o, and the degraded one too with --keep-degraded.

            Example:
              thumbs get ~/Pictures/IMG_0001.JPG --size 256x256 --mode fill --delivery opportunistic -o out.jpg
            """)

    @Argument(help: ArgumentHelp("A photo's path, or an asset id.", valueName: "PATH|ID"))
    var target: String

    @Option(help: ArgumentHelp("Target box.", valueName: "WxH"))
    var size: String = "256x256"

    @Option(help: "fill or fit.")
    var mode: ContentMode = .aspectFill

    @Option(
        help: "opportunistic, highQualityFormat (final) or fastFormat (fast) (default: deliveryMode of config.json).")
    var delivery: DeliveryMode?

    @Option(name: .shortAndLong, help: ArgumentHelp("Where to write the final image.", valueName: "FILE"))
    var output: String

    @Flag(help: "Also write the degraded image, as FILE with .degraded before its extension.")
    var keepDegraded = false

    @OptionGroup var library: LibraryOptions

    func validate() throws {
        guard let box = PixelSize(parsing: size), max(box.width, box.height) <= RenditionSpec.maximumDimension else {
            throw ValidationError("--size must look like 256x256 (each side at most \(RenditionSpec.maximumDimension))")
        }
    }

    func run() async throws {
        let opened = try await library.open(requireRoots: false)
        let photoLibrary = opened.library, store = opened.store
        guard let asset = try await find(in: photoLibrary) else {
            throw CommandFailure.usage("\(target): neither a photo nor an asset id of the library")
        }
        let manager = CachingImageManager(
            renderer: opened.renderer, store: store,
            configuration: opened.configuration.pipeline)
        let delivery = delivery ?? opened.configuration.deliveryMode
        let started = ContinuousClock.now
        do {
            for try await result in manager.requestImage(
                for: asset, targetSize: PixelSize(parsing: size)!, contentMode: mode,
                options: ImageRequestOptions(deliveryMode: delivery))
            {
                let elapsed = started.duration(to: .now)
                if library.json {
                    print(JSONLine.encode(Delivery(result, after: elapsed)))
                } else {
                    print(
                        "\(result.isDegraded ? "degraded" : "final") after \(elapsed.formattedMilliseconds): \(result.pixelSize) "
                            + "\(result.format.rawValue) from \(result.source.rawValue), \(result.bytes.count) bytes")
                }
                if !result.isDegraded || delivery == .fastFormat {
                    try Data(result.bytes).write(to: URL(fileURLWithPath: output))
                } else if keepDegraded {
                    let url = URL(fileURLWithPath: output)
                    let degraded = url.deletingPathExtension().appendingPathExtension("degraded")
                        .appendingPathExtension(url.pathExtension)
                    try Data(result.bytes).write(to: degraded)
                }
            }
        } catch ImageRequestError.imaging(let error) {
            throw CommandFailure.inputFailed("\(asset.path): \(error.kind.rawValue): \(error)")
        } catch ImageRequestError.failedBefore(let failure) {
            throw CommandFailure.inputFailed("\(asset.path): \(failure.kind.rawValue): \(failure.message)")
        } catch ImageRequestError.store(let error) {
            throw CommandFailure.cache(nil, error)
        }
        // The image was delivered before it was stored: keep it for the next request.
        await manager.persisted()
        try await store.flushAccessTimes()
    }

    /// The asset `target` names: a file (under the library root holding it, else its folder),
    /// or an id of the library.
    private func find(in library: PhotoLibrary) async throws -> Asset? {
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: target, isDirectory: &isFolder), !isFolder.boolValue {
            return try await library.asset(forFile: target)
        }
        return try await library.asset(withID: target)
    }

    /// One image delivered, as a JSON line (docs/EVENTS.md).
    private struct Delivery: Encodable {
        let degraded: Bool
        let milliseconds: Double
        let width: Int, height: Int
        let format: String, source: String
        let bytes: Int

        init(_ result: ImageResult, after elapsed: Duration) {
            degraded = result.isDegraded
            milliseconds = elapsed.seconds * 1000
            width = result.pixelSize.width
            height = result.pixelSize.height
            format = result.format.rawValue
            source = result.source.rawValue
            bytes = result.bytes.count
        }
    }
}
