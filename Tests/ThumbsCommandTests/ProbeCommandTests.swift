import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

/// `thumbs probe` of Live Photos and motion photos, run as a separate process.
@Suite struct ProbeCommandTests {
    let folder = TemporaryFolder()
    private let identifier = "1EA799FF-8384-4BC4-87AA-139A814D9125"

    private func probe(_ file: String) throws -> [String: Any] {
        let outcome = try ThumbsProcess.run(["probe", file])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        return try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any] ?? [:]
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aLivePhotosStillNamesTheMovieBesideIt() throws {
        let still = try folder.write(try LivePhotoFiles.iPhoneStill(contentIdentifier: identifier), to: "IMG_0001.JPG")
        #expect(try probe(still)["mediaSubtypes"] as? [String] == [], "no movie beside it yet")
        try LivePhotoFiles.liveMovie(at: folder.path + "/IMG_0001.MOV", contentIdentifier: identifier)
        let document = try probe(still)
        #expect(document["contentIdentifier"] as? String == identifier)
        #expect(document["mediaSubtypes"] as? [String] == ["live"])
        let movie = try #require(document["pairedMovie"] as? [String: Any])
        #expect(movie["path"] as? String == "IMG_0001.MOV" && movie["mediaType"] as? String == "quicktime")
        #expect((movie["duration"] as? Double).map { abs($0 - 1) < 0.2 } == true)
        let movieDocument = try probe(folder.path + "/IMG_0001.MOV")
        #expect(movieDocument["contentIdentifier"] as? String == identifier)
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func aMotionPhotoNamesTheMovieInsideIt() throws {
        let document = try probe(
            SharedPhotos.root.appendingPathComponent("phone/samsung-one-ui-6_motionphoto.heic").path)
        #expect(document["mediaSubtypes"] as? [String] == ["live"])
        let movie = try #require(document["embeddedMovie"] as? [String: Any])
        #expect(movie["offset"] as? Int == 452_284 && movie["length"] as? Int == 3_226_469)
        #expect(movie["duration"] is Double)
    }
}
