import ArgumentParser
import Foundation
import Thumbs

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract:
            "Print the decoding libraries this build links, which ones read camera RAW files and HEIC pictures, and how the processes that decode are confined.",
        discussion: """
            Versions are those loaded at run time (libvips, FFmpeg, LibRaw), which may differ \
            from the ones the build was compiled against. The confinement is what this kernel \
            lets a render worker put itself under (isolation "process", the default); with \
            isolation "none" files are decoded in the command's own process, unconfined.

            Example:
              thumbs version
            """)

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func run() throws {
        let libraries = try DecoderLibraries.linked()
        let isolation = try options.load().isolation
        let confinement = isolation == .process ? WorkerConfinement.available.names : []
        guard !json else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let document = Document(
                libvips: libraries.libvips, ffmpeg: libraries.ffmpeg, libraw: libraries.libRaw,
                libvipsRawLoader: libraries.libvipsReadsRaw ? "dcrawload" : "none",
                heicDecoder: libraries.heicDecoder, avifDecoder: libraries.avifDecoder,
                isolation: isolation.rawValue, confinement: confinement)
            return print(String(decoding: try encoder.encode(document), as: UTF8.self))
        }
        print("libvips \(libraries.libvips), FFmpeg \(libraries.ffmpeg), LibRaw \(libraries.libRaw)")
        let vipsLoader =
            libraries.libvipsReadsRaw
            ? "libvips' dcrawload is present and left unused: it demosaics every file in full"
            : "libvips has no LibRaw loader"
        print("camera RAW: LibRaw, embedded preview else half-size decode (\(vipsLoader))")
        print("HEIC: libheif, its HEVC pictures decoded by \(libraries.heicDecoder)")
        print("AVIF: libheif, its AV1 pictures decoded by \(libraries.avifDecoder)")
        print(
            isolation == .process
                ? "decoding: in render workers (thumbs-render-worker), confined by \(confinement.joined(separator: ", "))"
                : "decoding: in this process (isolation \"none\"), unconfined")
    }

    /// `thumbs version --json`.
    private struct Document: Encodable {
        let libvips: String, ffmpeg: String, libraw: String, libvipsRawLoader: String
        let heicDecoder: String, avifDecoder: String
        /// "process" or "none" (config.json's `isolation`).
        let isolation: String
        /// The measures a render worker is under, by name; empty when files are decoded in-process.
        let confinement: [String]
    }
}
