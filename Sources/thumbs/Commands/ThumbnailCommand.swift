import ArgumentParser
import Foundation
import Logging
import Thumbs
import ThumbsOneFile
import ThumbsRendering

struct ThumbnailCommand: AsyncParsableCommand, DecodesFiles, RendersOneFile {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write one PNG thumbnail, as a desktop thumbnailer (a .thumbnailer file's Exec=) does.",
        discussion: """
            The freedesktop.org thumbnailer interface: file managers run \
            `thumbs-thumbnailer -s %s %u %o` (deploy/freedesktop/thumbs.thumbnailer), which \
            renders as this command does and hands it any other command line. INPUT is a \
            path or a file:// URI; OUTPUT gets a PNG that fits within SIZE×SIZE, never enlarged, \
            upright and sRGB, for every type Thumbs reads: photos, HEIF/AVIF, camera RAW, videos' \
            poster frames. It is rendered in this process, confined as a render worker is before \
            the file is decoded (a worker renders it where the kernel has no Landlock; isolation \
            "none" in config.json renders it unconfined). The cache is not used; config.json is \
            read when one is found.

            The PNG is written beside OUTPUT and renamed onto it when complete: a file that \
            cannot be thumbnailed leaves nothing at OUTPUT.

            Exit status: 0 written, 1 the input failed, 2 usage or configuration error.

            Example:
              thumbs thumbnail -s 256 file:///home/me/Pictures/IMG%200001.JPG /tmp/thumb.png
            """)

    @Option(name: .shortAndLong, help: ArgumentHelp("The largest side of the thumbnail, in pixels.", valueName: "SIZE"))
    var size: Int

    @Argument(help: ArgumentHelp("The file: a path or a file:// URI.", valueName: "INPUT"))
    var input: String

    @Argument(help: ArgumentHelp("Where the PNG goes.", valueName: "OUTPUT"))
    var output: String

    @Option(
        help: """
            sdr (a PNG, tone-mapped; the default) or gainmap: OUTPUT then gets a JPEG, an Ultra HDR one \
            (the SDR picture and a gain map) for an HDR picture.
            """)
    var hdr: HDRRendering = .sdr

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        guard DesktopThumbnailer.sizes.contains(size) else {
            throw ValidationError("-s must be 1...\(RenditionSpec.maximumDimension), not \(size)")
        }
    }

    /// The desktop's PNG; with a gain map, a JPEG, which is what carries one.
    private var spec: RenditionSpec {
        var spec = DesktopThumbnailer.spec(size: size)
        if hdr == .gainMap {
            spec.format = .jpeg
            spec.hdr = .gainMap
        }
        return spec
    }

    func renderConfined() throws -> Bool {
        let path = try Self.path(of: input)
        return try OneFileRender.render(path, spec: spec, to: output, configuration: try options.load()) != nil
    }

    func run() async throws {
        let path = try Self.path(of: input)
        let configuration = try options.load()
        let renderer = try LibraryOptions.renderer(for: configuration)
        let thumbnail: Thumbnail
        do {
            defer { Self.logConfinement(of: renderer) }
            thumbnail = try await renderer.render(
                ImageLocation(path: path), specs: [spec], ticket: PriorityTicket(.interactive))[0]
        } catch let error as ImagingError {
            throw CommandFailure.inputFailed(OneFileRender.line(path, error))
        }
        try Self.write(thumbnail.bytes, to: output)
    }

    /// With --verbose, what the render worker said it is confined by: a file manager runs this
    /// command inside its own sandbox (GNOME's bwrap and seccomp filter), where only the worker
    /// knows which of its measures took hold.
    private static func logConfinement(of renderer: any ThumbnailRendering) {
        guard let confinement = (renderer as? IsolatedThumbnailRenderer)?.confinement else { return }
        CommandLog.logger.debug("render worker confined by \(confinement)")
    }

    /// The path INPUT names (``DesktopThumbnailer/path(of:)``); a usage error when it names no
    /// file of this machine.
    static func path(of input: String) throws -> String {
        do {
            return try DesktopThumbnailer.path(of: input)
        } catch {
            throw CommandFailure.usage(error.message)
        }
    }

    /// Writes `bytes` to a new file beside `output`, then renames it onto `output`: a reader
    /// never sees part of a thumbnail, and a failed write leaves nothing behind.
    static func write(_ bytes: [UInt8], to output: String) throws {
        let target = URL(fileURLWithPath: output)
        let temporary = target.deletingLastPathComponent()
            .appendingPathComponent(".\(target.lastPathComponent).\(UUID().uuidString).part")
        do {
            try Data(bytes).write(to: temporary, options: .withoutOverwriting)
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure.inputFailed("cannot write \(output): \(error.localizedDescription)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw CommandFailure.inputFailed("cannot write \(output): \(reason)")
        }
    }
}
