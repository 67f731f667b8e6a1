import Foundation
import HTTPTypes
import HummingbirdCore
import HummingbirdTesting
import NIOCore
import Testing
import Thumbs

@testable import ThumbsServer

@Suite("ThumbnailAnswer")
struct ThumbnailAnswerTests {
    private static let validators = ThumbnailAnswer.Validators(
        version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: nil, delivery: .highQualityFormat)
    private static let etag = "\"43e96188b8b938a0-f4dd5d5d05aacdc3\""

    private static func names(_ answer: ThumbnailAnswer) -> [String] {
        answer.fields.map(\.name.rawName)
    }

    @Test func validatorsNameTheContentAndTheURLsVersion() {
        #expect(Self.validators.etag == Self.etag && Self.validators.cacheControl == "no-cache")
        let versioned = ThumbnailAnswer.Validators(
            version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: "43e96188b8b938a0",
            delivery: .opportunistic)
        #expect(versioned.etag == Self.etag && versioned.cacheControl == "public, max-age=31536000, immutable")
        let stale = ThumbnailAnswer.Validators(
            version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: "0000000000000000",
            delivery: .highQualityFormat)
        #expect(stale.cacheControl == "no-cache")
    }

    @Test func aCopyNamedInIfNoneMatchIsCurrentUnlessTheRequestIsFast() {
        for current in [[Self.etag], ["W/" + Self.etag], ["*"], ["\"other\", " + Self.etag], ["\"other\"", Self.etag]] {
            #expect(Self.validators.isCurrent(ifNoneMatch: current), "\(current)")
        }
        for stale in [[], ["\"other\""], [String(Self.etag.dropLast())]] {
            #expect(!Self.validators.isCurrent(ifNoneMatch: stale), "\(stale)")
        }
        let fast = ThumbnailAnswer.Validators(
            version: "43e96188b8b938a0", tag: "f4dd5d5d05aacdc3", versionInURL: nil, delivery: .fastFormat)
        #expect(!fast.isCurrent(ifNoneMatch: [Self.etag]))
    }

    @Test func eachAnswerCarriesItsFieldsInOrderAndItsTier() {
        let image = ThumbnailAnswer.image([1, 2, 3], format: .webp, from: .store, validators: Self.validators)
        #expect(image.status == .ok && image.tier == .store)
        #expect(Self.names(image) == ["ETag", "Vary", "Cache-Control", "Content-Type", "Content-Length"])
        #expect(image.fields[.contentType] == "image/webp" && image.fields[.contentLength] == "3")
        #expect(image.body.map { Array(buffer: $0) } == [1, 2, 3])

        let notModified = ThumbnailAnswer.notModified(Self.validators)
        #expect(notModified.status == .notModified && notModified.tier == nil && notModified.body == nil)
        #expect(Self.names(notModified) == ["ETag", "Vary", "Cache-Control"])

        let standIn = ThumbnailAnswer.standIn([1, 2], format: .jpeg)
        #expect(standIn.status == .ok && standIn.tier == .degraded)
        #expect(
            Self.names(standIn) == ["Vary", "Cache-Control", "X-Thumbs-Degraded", "Content-Type", "Content-Length"])
        #expect(standIn.fields[.cacheControl] == "no-store" && standIn.fields[.eTag] == nil)
    }

    @Test func hummingbirdIsHandedTheSameFields() {
        let image = ThumbnailAnswer.image([1, 2, 3], format: .png, from: .memory, validators: Self.validators)
        let response = image.response
        #expect(response.status == .ok && response.headers == image.fields && response.body.contentLength == 3)
        let notModified = ThumbnailAnswer.notModified(Self.validators).response
        #expect(notModified.status == .notModified && notModified.body.contentLength == 0)
    }
}
