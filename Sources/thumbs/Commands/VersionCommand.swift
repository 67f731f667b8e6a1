import ArgumentParser
import Foundation
import Thumbs
import ThumbsSupport

struct VersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "version",
        abstract:
            "Print the decoding libraries this build was compiled against, and how the processes that decode are confined.",
        discussion: """
            The decoding libraries (libvips, FFmpeg, libheif, LibRaw, libavif, and libjxl through \
            libvips' JPEG XL module) are opened when a file first needs one, so this opens none \
            of them. With --libraries it opens each and prints the versions loaded at run time \
            (which may differ from the headers'), which ones read camera RAW files, HEIC and \
            AVIF pictures, animated AVIF and JPEG XL, and why a library that cannot be opened \
            could not (naming the Debian package to install).

            The confinement is what this kernel lets a render worker put itself under (isolation \
            "process", the default); with isolation "none" files are decoded in the command's \
            own process, unconfined.

            Examples:
              thumbs version
              thumbs version --libraries --json
            """)

    @Flag(help: "Open the decoding libraries and print what was loaded.")
    var libraries = false

    @Flag(help: "Print JSON.")
    var json = false

    @OptionGroup var options: ConfigurationOptions

    func run() throws {
        let isolation = try options.load().isolation
        let confinement = isolation == .process ? WorkerConfinement.available.names : []
        // libjxl has no header version: Thumbs reaches it only through libvips' module.
        let builtAgainst = DecodingLibrary.allCases.filter { !$0.headerVersion.isEmpty }
        let headers = Dictionary(uniqueKeysWithValues: builtAgainst.map { ($0.name, $0.headerVersion) })
        let loaded = libraries ? try DecoderLibraries.linked() : nil
        guard !json else {
            let encoder = JSONEncoder(style: .document)
            let document = Document(
                builtAgainst: headers, libvips: loaded?.libvips, ffmpeg: loaded?.ffmpeg, libraw: loaded?.libRaw,
                libvipsRawLoader: loaded.map { $0.libvipsReadsRaw ? "dcrawload" : "none" },
                heicDecoder: loaded?.heicDecoder, avifDecoder: loaded?.avifDecoder, libavif: loaded?.libavif,
                jpegXLLoader: loaded?.jpegXLLoader, isolation: isolation.rawValue, confinement: confinement)
            return print(String(decoding: try encoder.encode(document), as: UTF8.self))
        }
        let built = builtAgainst.map { "\($0.name) \($0.headerVersion)" }
        print("built against \(built.joined(separator: ", ")), each opened when a file first needs it")
        if let loaded { printLoaded(loaded) }
        print(
            isolation == .process
                ? "decoding: in render workers (thumbs-render-worker), confined by \(confinement.joined(separator: ", "))"
                : "decoding: in this process (isolation \"none\"), unconfined")
    }

    /// The libraries loaded, and how each format is decoded with them.
    private func printLoaded(_ loaded: DecoderLibraries) {
        print("loaded: libvips \(loaded.libvips), FFmpeg \(loaded.ffmpeg), LibRaw \(loaded.libRaw)")
        for handler in FormatRegistry.standard.handlers {
            print("\(handler.name): \(handler.decoding(with: loaded))")
        }
    }

    /// `thumbs version --json`; the libraries loaded only with `--libraries`.
    private struct Document: Encodable {
        /// Each decoding library's header version, by name ("libvips", "FFmpeg", "libheif", "LibRaw",
        /// "libavif").
        let builtAgainst: [String: String]
        let libvips: String?, ffmpeg: String?, libraw: String?, libvipsRawLoader: String?
        let heicDecoder: String?, avifDecoder: String?, libavif: String?
        /// "jxlload", or "none" when libvips' JPEG XL module cannot be loaded.
        let jpegXLLoader: String?
        /// "process" or "none" (config.json's `isolation`).
        let isolation: String
        /// The measures a render worker is under, by name; empty when files are decoded in-process.
        let confinement: [String]
    }
}
