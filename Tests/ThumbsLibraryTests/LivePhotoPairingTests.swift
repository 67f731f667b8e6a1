import SystemPackage
import Testing
import ThumbsCore
@testable import ThumbsLibrary

@Suite struct LivePhotoPairingTests {
    private let identifier = "1EA799FF-8384-4BC4-87AA-139A814D9125"

    private func asset(
        _ path: String, _ type: MediaType, identifier: String? = nil, movie: EmbeddedMovie? = nil
    ) -> Asset {
        let fingerprint = FileFingerprint(size: 100, modificationTimeNanoseconds: 1)
        var properties = ImageProperties(
            mediaType: type, pixelSize: PixelSize(width: 4, height: 3), fingerprint: fingerprint,
            video: type.isVideo
                ? VideoProperties(container: "mov", codec: "hevc", duration: 2.9, frameRate: 30, hasAudio: true) : nil)
        properties.contentIdentifier = identifier
        properties.embeddedMovie = movie
        return Asset(
            root: "/library", relativePath: path, mediaType: type, fingerprint: fingerprint, properties: properties)
    }

    @Test func aStillAndItsMovieAreOneAssetInEitherOrderAndAnyBatches() {
        let still = asset("DCIM/IMG_1.HEIC", .heif, identifier: identifier)
        let movie = asset("DCIM/IMG_1.MOV", .quickTime, identifier: identifier)
        for halves in [[still, movie], [movie, still]] {
            var pairing = LivePhotoPairing()
            #expect(pairing.admit([halves[0]]).isEmpty, "a half waits for its folder to be done")
            #expect(
                pairing.admit([asset("DCIM/other.jpg", .jpeg), halves[1]]).map(\.relativePath) == ["DCIM/other.jpg"])
            let listed = pairing.release(root: "/library", folder: FilePath("DCIM"))
            #expect(listed.map(\.relativePath) == ["DCIM/IMG_1.HEIC"])
            let live = listed[0]
            #expect(live.mediaSubtypes == .photoLive && !live.isVideo)
            #expect(live.pairedMovie?.relativePath == "DCIM/IMG_1.MOV" && live.motion?.duration == 2.9)
            #expect(live.fileSize == 200, "both halves' bytes")
            #expect(pairing.releaseAll().isEmpty)
        }
    }

    @Test func halvesWithoutAPartnerAreListedWhenTheirFolderIsDone() {
        var pairing = LivePhotoPairing()
        let still = asset("a/IMG_1.JPG", .jpeg, identifier: identifier)
        let elsewhere = asset("b/IMG_1.MOV", .quickTime, identifier: identifier)
        let otherIdentifier = asset("a/IMG_2.MOV", .quickTime, identifier: "another")
        #expect(pairing.admit([still, elsewhere, otherIdentifier]).isEmpty)
        #expect(pairing.release(root: "/library", folder: FilePath("b")).map(\.relativePath) == ["b/IMG_1.MOV"])
        let released = pairing.release(root: "/library", folder: FilePath("a"))
        #expect(released.map(\.relativePath) == ["a/IMG_1.JPG", "a/IMG_2.MOV"])
        #expect(released.allSatisfy { $0.mediaSubtypes.isEmpty && $0.pairedMovie == nil })
    }

    /// A duplicate import holds two pairs of one identifier: each still gets the movie of its
    /// own name, whatever order the folder lists them in; a movie left over is a video.
    @Test func stillsPairWithTheMovieOfTheirNameInAnyOrder() {
        let names = ["IMG_1.HEIC", "IMG_1 (1).MOV", "IMG_1.MOV", "IMG_1 (1).HEIC", "IMG_1 copy.MOV"]
        for order in [names, names.reversed(), [names[2], names[4], names[0], names[3], names[1]]] {
            var pairing = LivePhotoPairing()
            let halves = order.map {
                asset($0, $0.hasSuffix("MOV") ? .quickTime : .heif, identifier: identifier)
            }
            #expect(pairing.admit(halves).isEmpty)
            let listed = pairing.releaseAll()
            #expect(listed.map(\.relativePath) == ["IMG_1 (1).HEIC", "IMG_1 copy.MOV", "IMG_1.HEIC"])
            #expect(listed.map { $0.pairedMovie?.relativePath } == ["IMG_1 (1).MOV", nil, "IMG_1.MOV"])
        }
    }

    @Test func aMotionPhotoAndPlainFilesNeverWait() {
        var pairing = LivePhotoPairing()
        let motion = asset(
            "PXL_1.MP.jpg", .jpeg, identifier: identifier, movie: EmbeddedMovie(offset: 10, length: 90, duration: 1.5))
        let listed = pairing.admit([motion, asset("clip.mp4", .mp4), asset("photo.jpg", .jpeg)])
        #expect(listed.count == 3)
        #expect(
            listed[0].mediaSubtypes == .photoLive && listed[0].motion == .embedded(motion.properties!.embeddedMovie!))
        #expect(listed[1].mediaSubtypes.isEmpty && listed[2].motion == nil)
    }
}
