import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsLibrary
import ThumbsTestSupport

/// Albums and moments of photos whose dates and sizes a decoder reads from their headers.
@Suite struct CollectionsTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func albumsOfTheSharedPhotos() async throws {
        let library = PhotoLibrary(roots: [SharedPhotos.root.path], renderer: L.renderer, store: nil)
        var builder = AlbumBuilder()
        for try await batch in library.assets() { builder.add(batch) }
        // Every manifest file is media except the empty file and the text named .jpg.
        let media = SharedPhotos.entries.filter {
            !["broken/empty.jpg", "broken/not_an_image.jpg"].contains($0.relativePath)
        }
        let expected = Dictionary(grouping: media) { String($0.relativePath.split(separator: "/")[0]) }.mapValues(
            \.count)
        let found = Dictionary(uniqueKeysWithValues: builder.folderAlbums.map { ($0.title, $0.photoCount) })
        #expect(found == expected)
        let broken = try #require(builder.folderAlbums.first { $0.title == "broken" })
        #expect(broken.estimatedCount == 11, "every file named like a photo, before reading any")
        #expect(broken.keyAssets.count == 3)
        let smart = Dictionary(uniqueKeysWithValues: builder.smartAlbums.map { ($0.title, $0) })
        #expect(smart["All Photos"]?.photoCount == media.count)
        #expect(smart["Videos"] == nil, "an empty smart album is not listed")
        #expect(smart["Panoramas"]?.keyAssets.map(\.relativePath) == ["phone/HMD_Nokia_8.3_5G.jpg"])
        let bytes = media.map { UInt64($0.fileSize) }.reduce(0, +)
        #expect(smart["All Photos"]?.totalBytes == bytes)
    }

    @Test func keyAssetsAreTheNewestThreeThatCanBeDrawn() async throws {
        for (index, date) in [
            "2020:01:01 10:00:00", "2023:05:05 10:00:00", "2021:03:03 10:00:00", "2022:04:04 10:00:00",
        ].enumerated() {
            try folder.write(try L.jpeg(date: date), to: "library/trip/p\(index).jpg")
        }
        try folder.write(L.mp4, to: "library/trip/clip.mp4")
        var builder = AlbumBuilder(now: Date(timeIntervalSince1970: 4_102_444_800))  // 2100: nothing is recent
        for try await batch in L.library(folder).assets() { builder.add(batch) }
        let trip = try #require(builder.folderAlbums.first { $0.title == "trip" })
        // The video's file time (now) is the newest, but its header cannot be read (these bytes
        // are only enough to tell an MP4): a poster of it could not be drawn, so it comes last.
        #expect(trip.keyAssets.map(\.relativePath) == ["trip/p1.jpg", "trip/p3.jpg", "trip/p2.jpg"])
        #expect(trip.count(of: .photos) == 4 && trip.count(of: .videos) == 1 && trip.count(of: .all) == 5)
        #expect(!builder.smartAlbums.contains { $0.title == "Recently Added" }, "empty, so not listed")
    }

    @Test func albumsAndTheirAssetsWithoutAnAlbumBuilder() async throws {
        try folder.write(try L.jpeg(date: "2021:01:01 10:00:00"), to: "library/trip/old.jpg")
        try folder.write(try L.jpeg(date: "2023:01:01 10:00:00"), to: "library/trip/new.jpg")
        try folder.write(try L.jpeg(6000, 1500, date: "2022:01:01 10:00:00"), to: "library/wide.jpg")
        try folder.write(L.mp4, to: "library/trip/clip.mp4")
        let library = L.library(folder)
        let albums = try await library.albums()
        #expect(albums.map(\.title) == ["All Photos", "Videos", "Recently Added", "Panoramas", "library", "trip"])
        let trip = try #require(albums.first { $0.title == "trip" })
        let tripAssets = try await library.fetchAssets(in: trip)
        #expect(tripAssets.count == 3 && tripAssets.map(\.relativePath).contains("trip/clip.mp4"))
        let panoramas = try #require(albums.first { $0.kind == .smartAlbum(.panoramas) })
        #expect(try await library.fetchAssets(in: panoramas).map(\.relativePath) == ["wide.jpg"])
        let everything = try await library.fetchAssets()
        #expect(everything.count == 4)
        #expect(everything.object(at: 1).relativePath == "trip/new.jpg", "newest first, after the video's file time")
        #expect(everything.index(ofAssetWithID: everything[2].id) == 2)
    }

    @Test(.enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason))
    func momentsOfTheSharedPhotosEqualAFullSort() async throws {
        let library = PhotoLibrary(roots: [SharedPhotos.root.path], renderer: L.renderer, store: nil)
        var last = Moments()
        for try await snapshot in library.moments(batchSize: 7) { last = snapshot }
        let all = try await library.allAssets().assets
        #expect(last == Moments(sorting: all))
        #expect(last.assetCount == all.count)
        let iphone = all.first { $0.relativePath == "phone/iphone_13_pro_max.HEIC" }
        #expect(iphone?.day() == Day(year: 2022, month: 2, day: 16))
        #expect(last.sections.contains { $0.day == Day(year: 2022, month: 2, day: 16) })
        #expect(zip(last.sections, last.sections.dropFirst()).allSatisfy { $0.day > $1.day }, "newest first")
    }
}
