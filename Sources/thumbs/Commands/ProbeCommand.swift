import ArgumentParser
import Foundation
import Thumbs
import ThumbsSupport

struct ProbeCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "probe",
        abstract: "Print what a photo's, a RAW file's or a video's header says, without decoding its pixels.",
        discussion: """
            One JSON document per file: media type (from the content), upright size, EXIF \
            orientation, capture date, camera, embedded preview size, fingerprint; for a video \
            also its container, codec, duration, frame rate and whether it has sound. A Live \
            Photo's still names its movie (the file beside it with its content identifier) and a \
            motion photo the movie inside it (offset, length, duration); both have the subtype \
            "live".

            Examples:
              thumbs probe IMG_0001.HEIC
              thumbs probe IMG_0002.MOV DSC_0003.NEF
            """)

    @Argument(help: ArgumentHelp("Files to probe.", valueName: "FILE"))
    var files: [String]

    @OptionGroup var options: ConfigurationOptions

    func run() async throws {
        let configuration = try options.load()
        let renderer = try LibraryOptions.renderer(for: configuration)
        let encoder = JSONEncoder(style: .document)
        var failures = 0
        for file in files {
            do {
                let inspection = try await renderer.inspect(ImageLocation(path: file))
                guard let properties = inspection.properties else {
                    throw inspection.problem ?? .unsupportedFormat("not an image or a video")
                }
                var document = ProbeDocument(properties: properties)
                if let identifier = properties.contentIdentifier, properties.mediaType.isImage,
                    properties.embeddedMovie == nil
                {
                    document.pairedMovie = await PairedMovie.beside(
                        stillAt: file, identifier: identifier, renderer: renderer)
                }
                print(String(decoding: try encoder.encode(document), as: UTF8.self))
            } catch {
                failures += 1
                printError("\(file): \(error)")
            }
        }
        if failures > 0 { throw CommandFailure.someFailed(failures) }
    }
}
