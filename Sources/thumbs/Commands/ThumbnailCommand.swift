import ArgumentParser
import Foundation
import Logging
import Thumbs
import ThumbsRendering

struct ThumbnailCommand: AsyncParsableCommand, DecodesFiles, RendersOneFile {
    static let configuration = CommandConfiguration(
        commandName: "thumbnail",
        abstract: "Write one PNG thumbnail, as a desktop thumbnailer (a .thumbnailer file's Exec=) does.",
        discussion: """
            The freedesktop.org thumbnailer interface: file managers run it as \
            `thumbs thumbnail -s %s %u %o` (deploy/freedesktop/thumbs.thumbnailer). INPUT is a \
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

    @OptionGroup var options: ConfigurationOptions

    func validate() throws {
        guard (1...RenditionSpec.maximumDimension).contains(size) else {
            throw ValidationError("-s must be 1...\(RenditionSpec.maximumDimension), not \(size)")
        }
    }

    private var spec: RenditionSpec {
        RenditionSpec(size: PixelSize(width: size, height: size), contentMode: .aspectFit, format: .png)
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

    /// The path INPUT names: itself, or the path of a `file://` URI (empty or `localhost` host),
    /// percent-escapes decoded as bytes of UTF-8.
    static func path(of input: String) throws -> String {
        guard input.contains("://") else { return input }
        let scheme = "file://"
        guard input.lowercased().hasPrefix(scheme) else {
            throw CommandFailure.usage("\(input): only file:// URIs are read")
        }
        let rest = input.dropFirst(scheme.count)
        guard let slash = rest.firstIndex(of: "/"), ["", "localhost"].contains(rest[..<slash].lowercased()) else {
            throw CommandFailure.usage("\(input): only files of this machine are read")
        }
        var bytes: [UInt8] = []
        var utf8 = rest[slash...].utf8.makeIterator()
        while let byte = utf8.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = utf8.next().flatMap(Self.hexValue), let low = utf8.next().flatMap(Self.hexValue) else {
                throw CommandFailure.usage("\(input): a % not followed by two hex digits")
            }
            bytes.append(high << 4 | low)
        }
        guard let path = String(validating: bytes, as: UTF8.self), !path.utf8.contains(0) else {
            throw CommandFailure.usage("\(input): the path is not UTF-8")
        }
        return path
    }

    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
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
