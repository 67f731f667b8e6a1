import ArgumentParser
import Foundation
import Thumbs
import ThumbsOneFile
import ThumbsRendering

struct RenderCommand: AsyncParsableCommand, DecodesFiles, RendersOneFile {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render thumbnails of files or whole folders.",
        discussion: """
            With one FILE and -o, writes that thumbnail (beside OUT first, then renamed onto it), \
            rendered in this process, confined as a render worker is. With folders (or no PATH: the library \
            roots of config.json), renders every photo into the output folder, one file per \
            rendition, mirroring the folder tree. Bad files get one line each and the run goes on.

            Without --size, every rendition of config.json is rendered, from one decode per photo;
            --mode, --format, --quality, --upscale and --hdr then apply to each of them.

            Exit status: 0 all rendered, 1 some files failed, 2 usage or configuration error.

            Examples:
              thumbs render IMG_0001.JPG --size 256x256 --mode fill -o out.jpg
              thumbs render ~/Pictures -o thumbnails/
            """)

    @Argument(help: ArgumentHelp("Photos or folders (default: the library roots).", valueName: "PATH"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Target box, WIDTHxHEIGHT: render this one rendition.", valueName: "WxH"))
    var size: String?

    @Option(help: "fill (cover the box, centre-crop) or fit (inside the box). Default: fit.")
    var mode: ContentMode?

    @Option(help: "jpeg, webp or png. Default: jpeg.")
    var format: ThumbnailFormat?

    @Option(help: "Encoder quality, 1-100. Default: \(RenditionSpec.defaultQuality).")
    var quality: Int?

    @Flag(help: "Enlarge images smaller than the box.")
    var upscale = false

    @Option(
        help: """
            sdr (tone-map HDR pictures) or gainmap (an HDR picture's JPEG thumbnail is an Ultra HDR \
            JPEG: the SDR picture and a gain map for HDR screens). Default: sdr.
            """)
    var hdr: HDRRendering?

    @Option(
        name: .shortAndLong,
        help: ArgumentHelp(
            "Output file (one FILE, one rendition) or folder (default: ./thumbnails).", valueName: "OUT"))
    var output: String?

    @Flag(help: "Print failures and the summary as JSON lines.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        if let size {
            guard let box = PixelSize(parsing: size) else {
                throw ValidationError("--size must look like 256x256, not \"\(size)\"")
            }
            guard max(box.width, box.height) <= RenditionSpec.maximumDimension else {
                throw ValidationError("--size: each side must be at most \(RenditionSpec.maximumDimension)")
            }
        }
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be 1...100") }
        if hdr == .gainMap, let format, format != .jpeg {
            throw ValidationError("--hdr gainmap needs --format jpeg: a gain map rides only in a JPEG")
        }
    }

    func renderConfined() throws -> Bool {
        guard let output, let file = singleFile, !Self.namesFolder(output) else { return false }
        let configuration = try options.load()
        let renditions = renditions(from: configuration)
        // More than one: `run` says what is missing.
        guard renditions.count == 1 else { return false }
        let started = ContinuousClock.now
        guard
            let thumbnail = try OneFileRender.render(
                file, spec: renditions[0].spec, to: output, configuration: configuration)
        else { return false }
        Self.report(thumbnail, of: file, to: output, since: started)
        return true
    }

    func run() async throws {
        let configuration = try options.load()
        let renderer = try LibraryOptions.renderer(for: configuration)
        let renditions = renditions(from: configuration)
        if let output, let file = singleFile, !Self.namesFolder(output) {
            guard renditions.count == 1 else {
                throw CommandFailure.usage(
                    """
                    one file to one output file needs --size (the configuration has \(renditions.count) \
                    renditions); or give -o a folder, ending in /
                    """
                )
            }
            try await renderOne(file, to: output, spec: renditions[0].spec, renderer: renderer)
            return
        }
        let roots = paths.isEmpty ? configuration.library.roots.map(configuration.resolve) : paths
        var folders: [String] = [], files: [String] = []
        for root in roots {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: root, isDirectory: &isFolder) else {
                throw CommandFailure.usage("\(root): no such file or folder")
            }
            if isFolder.boolValue { folders.append(root) } else { files.append(root) }
        }
        let summary = try await render(
            files: files, folders: folders, renditions: renditions, renderer: renderer,
            includeHidden: configuration.library.includeHidden)
        print(json ? JSONEvent.rendered(summary).line : summary.description)
        let failed = summary.failed + summary.unwritten
        if failed > 0 { throw CommandFailure.someFailed(failed) }
    }

    /// Warms the output folder with the photos of `files` (each written as OUT/<file name>), then
    /// of `folders`, walked by the library's rules (those of `warm` for hidden files, symbolic
    /// links and unreadable folders); every failure gets its line as it comes.
    private func render(
        files: [String], folders: [String], renditions: [Rendition], renderer: any ThumbnailRendering,
        includeHidden: Bool
    ) async throws -> RenderSummary {
        let folderOutput = FolderWarmOutput(
            folder: output ?? "thumbnails", libraryFolders: folders,
            renditions: renditions.map { (name: $0.name, spec: $0.spec) }
        ) { stem, error in
            printError("cannot write \(stem).*: \(error.localizedDescription)")
        }
        let job = WarmJob(renderer: renderer, outputs: [folderOutput])
        // Named, even a video is tried: its render says why it cannot be made.
        let named = try await WarmBatch.inspecting(files: files, with: renderer)
        let library = PhotoLibrary(roots: folders, includeHidden: includeHidden, renderer: renderer, store: nil)
        let json = json
        let progress = try await job.run([.batch(named), .library(library)]) { event in
            switch event {
            case .failed(let failure) where json: print(JSONEvent.failed(failure).line)
            case .failed(let failure):
                print("failed \(failure.path): \(failure.error.kind.rawValue): \(failure.error)".escapedForTerminal)
            case .partial(let asset) where json: print(JSONEvent.partial(path: asset.path).line)
            case .partial(let asset): printError(ProgressDisplay.partialWarning(asset.path))
            case .issue(let issue): printError("\(issue)")
            case .progress: break
            }
        }
        return RenderSummary(progress: progress, renditions: renditions.count, unwritten: folderOutput.unwritten)
    }

    /// `--size` makes one rendition from the flags; otherwise the configuration's ladder, with
    /// any of --mode, --format, --quality, --upscale, --hdr applied to every rung (a gain map
    /// asked of a rung that is not a JPEG leaves it as it is).
    private func renditions(from configuration: ThumbsConfiguration) -> [Rendition] {
        if let box = size.flatMap(PixelSize.init(parsing:)) {
            var spec = RenditionSpec(size: box, allowsUpscaling: upscale)
            spec.contentMode = mode ?? spec.contentMode
            spec.format = format ?? spec.format
            spec.quality = quality ?? spec.quality
            spec.hdr = hdr ?? spec.hdr
            return [Rendition(name: "\(box)-\(spec.contentMode.rawValue)", spec: spec)]
        }
        return configuration.renditions.map { rendition in
            var spec = rendition.spec
            spec.contentMode = mode ?? spec.contentMode
            spec.format = format ?? spec.format
            spec.quality = quality ?? spec.quality
            spec.allowsUpscaling = upscale || spec.allowsUpscaling
            if let hdr, hdr == .sdr || spec.format == .jpeg { spec.hdr = hdr }
            return Rendition(name: rendition.name, spec: spec)
        }
    }

    /// The one PATH given, when it is a file.
    private var singleFile: String? {
        var isFolder: ObjCBool = false
        guard paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder),
            !isFolder.boolValue
        else { return nil }
        return paths[0]
    }

    /// Whether -o names a folder: it ends in "/" or is one already.
    private static func namesFolder(_ output: String) -> Bool {
        var isFolder: ObjCBool = false
        return output.hasSuffix("/")
            || (FileManager.default.fileExists(atPath: output, isDirectory: &isFolder) && isFolder.boolValue)
    }

    private func renderOne(
        _ path: String, to output: String, spec: RenditionSpec,
        renderer: any ThumbnailRendering
    ) async throws {
        let started = ContinuousClock.now
        do {
            let thumbnail = try await renderer.render(
                ImageLocation(path: path), specs: [spec], ticket: PriorityTicket(.interactive))[0]
            try Data(thumbnail.bytes).write(to: URL(fileURLWithPath: output))
            Self.report(thumbnail, of: path, to: output, since: started)
        } catch let error as ImagingError {
            throw CommandFailure.inputFailed(OneFileRender.line(path, error))
        }
    }

    /// The line of a thumbnail written, and the warning of a partial one.
    private static func report(
        _ thumbnail: Thumbnail, of path: String, to output: String, since started: ContinuousClock.Instant
    ) {
        if thumbnail.isPartial { printError(ProgressDisplay.partialWarning(path)) }
        let elapsed = started.duration(to: .now)
        print(
            "\(output.escapedForTerminal): \(thumbnail.pixelSize) \(thumbnail.format.rawValue), \(thumbnail.bytes.count) bytes, \(elapsed.formattedMilliseconds)"
        )
    }
}
