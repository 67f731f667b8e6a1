import ArgumentParser
import Foundation
import Thumbs

struct RenderCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render thumbnails of files or whole folders.",
        discussion: """
            With one FILE and -o, writes that thumbnail. With folders (or no PATH: the library \
            roots of config.json), renders every photo into the output folder, one file per \
            rendition, mirroring the folder tree. Bad files get one line each and the run goes on.

            Without --size, every rendition of config.json is rendered, from one decode per photo.

            Exit status: 0 all rendered, 1 some files failed, 2 usage or configuration error.

            Examples:
              thumbs render IMG_0001.JPG --size 256x256 --mode fill -o out.jpg
              thumbs render ~/Pictures -o thumbnails/
            """)

    @Argument(help: ArgumentHelp("Photos or folders (default: the library roots).", valueName: "PATH"))
    var paths: [String] = []

    @Option(help: ArgumentHelp("Target box, WIDTHxHEIGHT.", valueName: "WxH"))
    var size: String?

    @Option(help: "fill (cover the box, centre-crop) or fit (inside the box).")
    var mode: ContentMode = .aspectFit

    @Option(help: "jpeg, webp or png.")
    var format: ThumbnailFormat = .jpeg

    @Option(help: "Encoder quality, 1-100.")
    var quality: Int = 82

    @Flag(help: "Enlarge images smaller than the box.")
    var upscale = false

    @Option(name: .shortAndLong, help: ArgumentHelp(
        "Output file (one FILE) or folder (default: ./thumbnails).", valueName: "OUT"))
    var output: String?

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        if let size, PixelSize(parsing: size) == nil {
            throw ValidationError("--size must look like 256x256, not \"\(size)\"")
        }
        guard (1...100).contains(quality) else { throw ValidationError("--quality must be 1...100") }
    }

    func run() async throws {
        let configuration = try loadOrExit(options)
        let renderer = ThumbnailRenderer(configuration: configuration.imaging)
        let renditions = size.flatMap(PixelSize.init(parsing:)).map { box in
            [Rendition(name: "\(box)-\(mode.rawValue)", spec: RenditionSpec(
                size: box, contentMode: mode, format: format, quality: quality, allowsUpscaling: upscale))]
        } ?? configuration.renditions
        var isFolder: ObjCBool = false
        if paths.count == 1, FileManager.default.fileExists(atPath: paths[0], isDirectory: &isFolder),
           !isFolder.boolValue, let output, renditions.count == 1 {
            try await renderOne(paths[0], to: output, spec: renditions[0].spec, renderer: renderer)
            return
        }
        let roots = paths.isEmpty ? configuration.library.roots.map(configuration.resolve) : paths
        for root in roots where !FileManager.default.fileExists(atPath: root) {
            CommandFailure.usage("\(root): no such file or folder").exit()
        }
        let job = LibraryRenderJob(roots: roots, renditions: renditions,
                                   outputFolder: output ?? "thumbnails", renderer: renderer,
                                   includeHidden: configuration.library.includeHidden)
        let summary = await job.run()
        print(summary.description)
        if summary.failed > 0 { CommandFailure.someFailed(summary.failed).exit() }
    }

    private func renderOne(_ path: String, to output: String, spec: RenditionSpec,
                           renderer: ThumbnailRenderer) async throws {
        let started = ContinuousClock.now
        do {
            let thumbnail = try await renderer.render(path, spec: spec)
            try Data(thumbnail.bytes).write(to: URL(fileURLWithPath: output))
            let elapsed = started.duration(to: .now)
            print("\(output): \(thumbnail.pixelSize) \(thumbnail.format.rawValue), \(thumbnail.bytes.count) bytes, \(elapsed.formattedMilliseconds)")
        } catch let error as ImagingError {
            CommandFailure.usage("\(path): \(error.kind.rawValue): \(error)").exitWithCode(1)
        }
    }
}

extension CommandFailure {
    /// Prints the failure and exits with `code` (a single bad file is a failed input, exit 1).
    func exitWithCode(_ code: Int32) -> Never {
        fflush(nil)  // flush stdout first: keep the report's lines before this one when both go to one place
        FileHandle.standardError.write(Data("thumbs: \(self)\n".utf8))
        ThumbsCommand.exit(withError: ExitCode(code))
    }
}

extension Duration {
    var formattedMilliseconds: String {
        let milliseconds = Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
        return String(format: "%.1f ms", milliseconds)
    }
}

extension ContentMode: ExpressibleByArgument {}
extension ThumbnailFormat: ExpressibleByArgument {}
