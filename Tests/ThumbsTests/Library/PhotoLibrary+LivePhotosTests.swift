import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
@testable import ThumbsLibrary
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport

@Suite("PhotoLibrary: Live Photos and motion photos")
struct PhotoLibraryLivePhotosTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures
    var root: String { folder.path + "/library" }
    private let first = "1EA799FF-8384-4BC4-87AA-139A814D9125"
    private let second = "5D3C6A40-9E84-4F3B-8B0F-0C2B6E0A2F11"

    /// A phone's folder: a Live Photo (still and movie), a movie whose still was deleted, a
    /// motion photo, a plain photo; and another folder holding a still whose movie is elsewhere.
    private func writeLibrary() throws {
        try folder.write(try LivePhotoFiles.iPhoneStill(contentIdentifier: first), to: "library/DCIM/IMG_0001.JPG")
        try LivePhotoFiles.liveMovie(at: root + "/DCIM/IMG_0001.MOV", contentIdentifier: first)
        try LivePhotoFiles.liveMovie(at: root + "/DCIM/IMG_0002.MOV", contentIdentifier: second)
        let movie = try LivePhotoFiles.movie(in: folder)
        try folder.write(
            try LivePhotoFiles.motionPhoto(
                xmp: LivePhotoFiles.motionPhotoXMP(movieLength: movie.count, form: .attributes), movie: movie),
            to: "library/DCIM/PXL_0003.MP.jpg")
        try folder.write(try L.jpeg(), to: "library/DCIM/plain.jpg")
        try folder.write(try LivePhotoFiles.iPhoneStill(contentIdentifier: second), to: "library/other/IMG_0002.JPG")
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aStillAndItsMovieAreOneAssetFromFilesAndFromTheCache() async throws {
        try writeLibrary()
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        for pass in ["read", "cached"] {
            let library = PhotoLibrary(roots: [root], renderer: L.renderer, store: store)
            let batch = try await library.allAssets()
            #expect(batch.fromCache == (pass == "read" ? 0 : 6), "\(pass)")
            let byPath = Dictionary(uniqueKeysWithValues: batch.assets.map { ($0.relativePath, $0) })
            #expect(
                byPath.keys.sorted() == [
                    "DCIM/IMG_0001.JPG", "DCIM/IMG_0002.MOV", "DCIM/PXL_0003.MP.jpg", "DCIM/plain.jpg",
                    "other/IMG_0002.JPG",
                ], "the paired movie is not an asset of its own (\(pass))")
            let live = try #require(byPath["DCIM/IMG_0001.JPG"])
            #expect(live.mediaSubtypes == .photoLive && live.pairedMovie?.relativePath == "DCIM/IMG_0001.MOV")
            #expect(live.motion?.duration.map { abs($0 - 1) < 0.2 } == true)
            let movieSize = try FileManager.default.attributesOfItem(atPath: root + "/DCIM/IMG_0001.MOV")[.size] as? Int
            #expect(live.fileSize == live.fingerprint.size + UInt64(movieSize ?? 0))
            let motionPhoto = try #require(byPath["DCIM/PXL_0003.MP.jpg"])
            guard case .embedded(let embedded) = motionPhoto.motion else {
                Issue.record("the motion photo has no embedded movie")
                continue
            }
            #expect(embedded.offset + embedded.length == motionPhoto.fingerprint.size)
            for path in ["DCIM/IMG_0002.MOV", "DCIM/plain.jpg", "other/IMG_0002.JPG"] {
                #expect(byPath[path]?.mediaSubtypes == [], "\(path): its partner is in another folder or gone")
            }
        }
    }

    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func theLivePhotosAlbumHoldsBothKindsAndVideosNeitherMovie() async throws {
        try writeLibrary()
        let library = L.library(folder)
        let albums = Dictionary(uniqueKeysWithValues: try await library.albums().map { ($0.title, $0) })
        let live = try #require(albums["Live Photos"])
        #expect(live.count(of: .all) == 2 && live.videoCount == 0)
        #expect(albums["Videos"]?.count(of: .all) == 1)
        #expect(albums["All Photos"]?.count(of: .all) == 4)
        let fetched = try await library.fetchAssets(in: live)
        #expect(Set(fetched.map(\.relativePath)) == ["DCIM/IMG_0001.JPG", "DCIM/PXL_0003.MP.jpg"])
    }

    /// A change to either half is a change of the asset: the still keeps its id, and a movie
    /// removed leaves a plain photo (changed), never a movie inserted.
    @Test(.enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason))
    func aChangeToEitherHalfIsAChangeOfTheAsset() async throws {
        try writeLibrary()
        let store = try ThumbnailStore(configuration: StoreConfiguration(path: folder.path + "/cache"))
        let library = PhotoLibrary(roots: [root], renderer: L.renderer, store: store)
        _ = try await library.rescan()
        let still = AssetID.make(root: root, relativePath: "DCIM/IMG_0001.JPG")

        try LivePhotoFiles.liveMovie(at: folder.path + "/again.mov", contentIdentifier: first)
        try FileManager.default.removeItem(atPath: root + "/DCIM/IMG_0001.MOV")
        try FileManager.default.moveItem(atPath: folder.path + "/again.mov", toPath: root + "/DCIM/IMG_0001.MOV")
        let touched = try #require(try await library.rescan())
        #expect(touched.changedIndexes.map { touched.after[$0].id } == [still])
        #expect(touched.insertedIndexes.isEmpty && touched.removedIndexes.isEmpty)

        try FileManager.default.removeItem(atPath: root + "/DCIM/IMG_0001.MOV")
        let removed = try #require(try await library.rescan())
        #expect(removed.changedIndexes.map { removed.after[$0].id } == [still])
        #expect(removed.insertedIndexes.isEmpty && removed.removedIndexes.isEmpty)
        #expect(removed.after.first { $0.id == still }?.mediaSubtypes == [])
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func theSharedSamsungMotionPhotoIsLive() async throws {
        let file = SharedPhotos.root.appendingPathComponent("phone/samsung-one-ui-6_motionphoto.heic").path
        let asset = try await Asset.inspecting(file: file, with: L.renderer)
        #expect(asset.mediaSubtypes == .photoLive)
        #expect(
            asset.motion
                == .embedded(EmbeddedMovie(offset: 452_284, length: 3_226_469, duration: asset.motion?.duration)))
    }
}
