import Testing
import ThumbsCore
import ThumbsImaging
import ThumbsIsolation

/// A worker's replies: what is written reads back the same, and bytes that break the
/// protocol are refused, never trusted.
@Suite struct WorkerReplyTests {
    @Test func repliesReadBackAsWritten() throws {
        var thumbnail = Thumbnail(
            bytes: [0xFF, 0xD8, 0xFF, 0xD9], pixelSize: PixelSize(width: 3, height: 2), format: .jpeg)
        thumbnail.placeholder = ThumbHash(rgba: [UInt8](repeating: 200, count: 4 * 4 * 4), width: 4, height: 4)
        let replies: [WorkerReply] = [
            .thumbnails([thumbnail, thumbnail]), .preview(nil), .preview(thumbnail),
            .failure(.tooManyPixels(width: 1, height: 2, limit: 3)), .failure(.timedOut(.milliseconds(1500))),
            .failure(.corrupt("IHDR: CRC error")), .failure(.crashed),
        ]
        for reply in replies {
            let framed = reply.encoded()
            #expect(try WorkerReply(decoding: Array(framed.dropFirst(4))) == reply)
        }
        let decoded = try WorkerReply(decoding: Array(WorkerReply.thumbnails([thumbnail]).encoded().dropFirst(4)))
        guard case .thumbnails(let thumbnails) = decoded else { return }
        #expect(thumbnails.first?.placeholder == thumbnail.placeholder)
    }

    @Test func aPartialThumbnailReadsBackPartial() throws {
        var partial = Thumbnail(bytes: [0x89, 0x50], pixelSize: PixelSize(width: 2, height: 2), format: .png)
        partial.isPartial = true
        let whole = Thumbnail(bytes: [0x89, 0x50], pixelSize: PixelSize(width: 2, height: 2), format: .png)
        let framed = WorkerReply.thumbnails([partial, whole]).encoded()
        guard case .thumbnails(let thumbnails) = try WorkerReply(decoding: Array(framed.dropFirst(4))) else {
            Issue.record("not thumbnails")
            return
        }
        #expect(thumbnails.map(\.isPartial) == [true, false])
    }

    @Test func everyCutOfAReplyIsRefused() {
        let bytes = Array(
            WorkerReply.thumbnails([
                Thumbnail(bytes: [1, 2, 3], pixelSize: PixelSize(width: 1, height: 1), format: .png)
            ]).encoded().dropFirst(4))
        for length in 0..<bytes.count {
            #expect(throws: (any Error).self) { try WorkerReply(decoding: Array(bytes.prefix(length))) }
        }
        #expect(throws: (any Error).self) { try WorkerReply(decoding: bytes + [0]) }
    }

    @Test func countsPastTheirLimitsAreRefused() {
        // A reply claiming 2^32 - 1 thumbnails, then nothing.
        #expect(throws: (any Error).self) { try WorkerReply(decoding: [0, 0xFF, 0xFF, 0xFF, 0xFF]) }
        // A thumbnail wider than any rendition.
        #expect(throws: (any Error).self) { try WorkerReply(decoding: [0, 1, 0, 0, 0, 0xFF, 0xFF, 0, 0, 1, 0, 0, 0]) }
    }
}
