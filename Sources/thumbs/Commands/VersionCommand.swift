import ArgumentParser
import Foundation
import Thumbs

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract:
            "Print the decoding libraries this build links, and which ones read camera RAW files and HEIC pictures.",
        discussion: """
            Versions are those loaded at run time (libvips, FFmpeg, LibRaw), which may differ \
            from the ones the build was compiled against.

            Example:
              thumbs version
            """)

    @Flag(help: "Print JSON.")
    var json = false

    func run() throws {
        let libraries = try DecoderLibraries.linked()
        guard !json else {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
            let document = [
                "libvips": libraries.libvips, "ffmpeg": libraries.ffmpeg, "libraw": libraries.libRaw,
                "libvipsRawLoader": libraries.libvipsReadsRaw ? "dcrawload" : "none",
                "heicDecoder": libraries.heicDecoder, "avifDecoder": libraries.avifDecoder,
            ]
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
    }
}
