import Foundation
import Testing
import ThumbsCore
import ThumbsLibrary

@testable import ThumbsServer

@Suite("PageCursor")
struct PageCursorTests {
    private func asset(_ id: String, _ seconds: TimeInterval) -> Asset {
        Asset(
            root: "/library", relativePath: id + ".jpg", mediaType: .jpeg,
            fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: Int64(seconds * 1e9)), properties: nil)
    }

    @Test func aCursorRoundTripsAndResumesRightAfterItsAsset() throws {
        let assets = FetchResult(assets: (0..<10).map { asset(String(format: "%016x", $0), Double($0 / 2)) })
        let cursor = PageCursor(after: assets[3])
        let parsed = try #require(PageCursor(cursor.text))
        #expect(parsed == cursor)
        #expect(parsed.start(in: Array(assets.indices), of: assets) == 4)
    }

    @Test func pagingSurvivesAnInsertionBeforeTheCursor() throws {
        let before = FetchResult(assets: (0..<6).map { asset(String(format: "%016x", $0), Double($0)) })
        let cursor = PageCursor(after: before[2])
        let after = FetchResult(assets: Array(before) + [asset("ffffffffffffffff", 100)])
        let start = cursor.start(in: Array(after.indices), of: after)
        #expect(after[start].id == before[3].id)
    }

    @Test func garbageIsNoCursor() {
        for text in [
            "", "abc", String(repeating: "g", count: 32), String(repeating: "F", count: 32),
            "7ff0000000000000" + "0123456789abcdef",
        ] {
            #expect(PageCursor(text) == nil, "\(text)")
        }
    }
}
