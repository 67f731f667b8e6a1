import NIOCore
import Testing

@testable import ThumbsServer

@Suite("ReadyAnswers")
struct ReadyAnswersTests {
    private static func entry(bytes: Int, generation: Int = 0) -> ReadyAnswers.Entry {
        ReadyAnswers.Entry(
            generation: generation, etag: "\"e\"", cacheControl: "no-cache", revalidates: true,
            contentType: "image/jpeg", body: ByteBuffer(repeating: 1, count: bytes))
    }

    @Test func anAnswerHoldsUntilTheLibraryChanges() {
        let answers = ReadyAnswers(byteLimit: 1000)
        answers.insert(Self.entry(bytes: 10, generation: 3), for: "/thumbnails/a/grid")
        #expect(answers.entry(for: "/thumbnails/a/grid", generation: 3)?.body.readableBytes == 10)
        #expect(answers.entry(for: "/thumbnails/a/grid", generation: 4) == nil)
        // Dropped, not kept for a later look at the old generation.
        #expect(answers.entry(for: "/thumbnails/a/grid", generation: 3) == nil)
    }

    @Test func anAnswerIsEncodedAhead() {
        let entry = Self.entry(bytes: 3)
        #expect(
            String(buffer: entry.okHead)
                == "HTTP/1.1 200 OK\r\nETag: \"e\"\r\nVary: Authorization, Cookie\r\nCache-Control: no-cache\r\n"
                + "Content-Type: image/jpeg\r\nContent-Length: 3\r\n")
        #expect(
            String(buffer: entry.notModifiedHead)
                == "HTTP/1.1 304 Not Modified\r\nETag: \"e\"\r\nVary: Authorization, Cookie\r\nCache-Control: no-cache\r\n"
        )
    }

    @Test func answersStayWithinTheirBytes() {
        // Each entry keeps its body and its two encoded heads (about 300 bytes in all).
        let answers = ReadyAnswers(byteLimit: 1300)
        for index in 0..<10 { answers.insert(Self.entry(bytes: 150), for: "/t/\(index)") }
        let kept = (0..<10).filter { answers.entry(for: "/t/\($0)", generation: 0) != nil }
        #expect(kept.count == 3 && kept.contains(9))
        answers.insert(Self.entry(bytes: 2000), for: "/t/huge")
        #expect(answers.entry(for: "/t/huge", generation: 0) == nil)
    }
}
