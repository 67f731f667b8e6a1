import Testing
import ThumbsCore
@testable import ThumbsStore

@Suite struct MetadataRecordVersionTests {
    /// The versions follow each other from 1, the last is the one written.
    @Test func versionsAreNumberedInOrder() {
        #expect(
            MetadataRecordVersion.allCases.map(\.rawValue) == Array(1...UInt8(MetadataRecordVersion.allCases.count)))
        #expect(MetadataRecordVersion.current == .contentSignatures)
        #expect(MetadataRecordVersion.allCases.sorted() == MetadataRecordVersion.allCases)
    }

    /// Videos, RAW and AVI files were probed from version 3; every asset's Live Photo links,
    /// subtypes and bursts read from version 4; version 5's content signatures outdate nothing.
    /// A current record is never outdated.
    @Test func aRecordIsOutdatedForTheFilesALaterVersionReadsMoreOf() {
        for type in MediaType.allCases {
            #expect(!MetadataRecordVersion.current.isOutdated(for: type), "\(type)")
            #expect(MetadataRecordVersion.videos.isOutdated(for: type) == type.isAsset, "\(type)")
            #expect(!MetadataRecordVersion.livePhotosSubtypesAndBursts.isOutdated(for: type), "\(type)")
            #expect(
                MetadataRecordVersion.placeholders.isOutdated(for: type) == (!type.isImage || type.isAsset), "\(type)")
            #expect(
                MetadataRecordVersion.probedProperties.isOutdated(for: type)
                    == MetadataRecordVersion.placeholders.isOutdated(for: type), "\(type)")
        }
        #expect(
            MetadataRecordVersion.placeholders.isOutdated(for: .mp4)
                && !MetadataRecordVersion.current.isOutdated(for: .mp4))
    }
}
