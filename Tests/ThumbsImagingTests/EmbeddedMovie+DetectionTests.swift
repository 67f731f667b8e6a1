import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsTestSupport
import ThumbsSamples

/// The movie inside a motion photo: Samsung's `mpvd` box in the shared real HEIC, Google's XMP
/// over generated JPEGs with an ffmpeg-made MP4 appended, and claims that do not hold.
@Suite struct EmbeddedMovieDetectionTests {
    let folder = TemporaryFolder("thumbs-motion-photo")

    static func file(_ path: String) throws -> FileBytes {
        FileBytes(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func samsungsMovieIsItsMpvdBoxsContents() throws {
        let path = SharedPhotos.root.appendingPathComponent("phone/samsung-one-ui-6_motionphoto.heic").path
        let probed = try VipsRenderer().probe(path)
        let movie = try #require(probed.embeddedMovie)
        #expect(movie.offset == 452_284 && movie.length == 3_226_469)
        // Its mvhd: 31301 at a timescale of 10000.
        #expect(movie.duration == 3.1301)
        #expect(probed.contentIdentifier == nil)
    }

    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        arguments: ["attributes", "elements", "micro video"])
    func googlesMovieIsTheLengthItsXMPSays(format: String) throws {
        let movie = try LivePhotoFiles.movie(in: folder)
        let xmp =
            switch format {
            case "attributes": LivePhotoFiles.motionPhotoXMP(movieLength: movie.count, form: .attributes)
            case "elements": LivePhotoFiles.motionPhotoXMP(movieLength: movie.count, form: .elements)
            default: LivePhotoFiles.microVideoXMP(offset: movie.count)
            }
        let photo = try LivePhotoFiles.motionPhoto(xmp: xmp, movie: movie)
        let path = try folder.write(photo, to: "motion.jpg")
        let found = try #require(try VipsRenderer().probe(path).embeddedMovie)
        #expect(found.offset == UInt64(photo.count - movie.count) && found.length == UInt64(movie.count))
        #expect(abs((found.duration ?? 0) - 1) < 0.05, "\(String(describing: found.duration))")
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aClaimThatDoesNotHoldIsNoMovie() throws {
        let movie = try LivePhotoFiles.movie(in: folder)
        let photoLength = try LivePhotoFiles.motionPhoto(xmp: "", movie: []).count
        // Past the file's start, one byte off (not at an ftyp box), and no movie appended.
        for (length, appended) in [
            (photoLength * 10 + movie.count, movie), (movie.count + 1, movie), (movie.count, []),
        ] {
            let photo = try LivePhotoFiles.motionPhoto(
                xmp: LivePhotoFiles.motionPhotoXMP(movieLength: length, form: .attributes), movie: appended)
            let path = try folder.write(photo, to: "claim.jpg")
            #expect(try VipsRenderer().probe(path).embeddedMovie == nil, "\(length)")
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aMovieWithoutAHeaderHasNoDuration() throws {
        let movie = try LivePhotoFiles.movie(in: folder)
        let ftyp = Int(movie[3])
        let bytes = Array(movie.prefix(ftyp)) + [0, 0, 0, 8] + Array("free".utf8)
        let found = try #require(EmbeddedMovie(in: FileBytes(bytes), range: 0..<UInt64(bytes.count)))
        #expect(found.length == UInt64(bytes.count) && found.duration == nil)
        #expect(EmbeddedMovie(in: FileBytes(bytes), range: 0..<UInt64(bytes.count + 1)) == nil)
    }

    @Test func plainPhotosHaveNone() throws {
        let jpeg = try folder.write(try SyntheticImage(width: 64, height: 48).encoded(as: .jpeg), to: "plain.jpg")
        #expect(try VipsRenderer().probe(jpeg).embeddedMovie == nil)
        #expect(EmbeddedMovie(in: FileBytes([]), xmp: nil) == nil)
    }
}
