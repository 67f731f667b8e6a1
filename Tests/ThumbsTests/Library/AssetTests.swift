import Foundation
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsImaging
import ThumbsLibrary
import ThumbsSamples

/// An asset's day from its EXIF date, which only a decoder reads.
@Suite struct AssetTests {
    let folder = TemporaryFolder()

    @Test func exifDateDecidesTheDayWhereThePhotoWasTaken() throws {
        let renderer = VipsRenderer()
        func asset(_ date: String, offset: String?) throws -> Asset {
            var exif = ["exif-ifd2-DateTimeOriginal": date]
            if let offset { exif["exif-ifd2-OffsetTimeOriginal"] = offset }
            let path = try folder.write(
                try SyntheticImage(width: 64, height: 48, exif: exif).encoded(as: .jpeg),
                to: "\(UUID().uuidString).jpg")
            let properties = try renderer.probe(path)
            return Asset(
                root: folder.path, relativePath: URL(fileURLWithPath: path).lastPathComponent,
                mediaType: .jpeg, fingerprint: properties.fingerprint, properties: properties)
        }
        let lateInTokyo = try asset("2024:03:09 23:30:00", offset: "+09:00")
        let earlyNextDayInTokyo = try asset("2024:03:10 00:30:00", offset: "+09:00")
        let lateInCalifornia = try asset("2024:03:09 23:30:00", offset: "-08:00")
        #expect(lateInTokyo.properties?.captureDate?.description == "2024-03-09T23:30:00+09:00")
        #expect(lateInTokyo.day() == Day(year: 2024, month: 3, day: 9))
        #expect(earlyNextDayInTokyo.day() == Day(year: 2024, month: 3, day: 10))
        // Already the 10th in UTC, but taken on the evening of the 9th where it was taken.
        #expect(lateInCalifornia.day(in: TimeZone(identifier: "UTC")!) == Day(year: 2024, month: 3, day: 9))
        #expect(lateInCalifornia.date.timeIntervalSince1970 == 1_710_055_800)
    }
}
