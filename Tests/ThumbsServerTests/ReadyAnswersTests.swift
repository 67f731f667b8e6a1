import HTTPTypes
import NIOCore
import Testing

import ThumbsCore
import ThumbsPipeline
@testable import ThumbsServer

@Suite("ReadyAnswers")
struct ReadyAnswersTests {
    private static let validators = ThumbnailAnswer.Validators(
        version: "v", tag: "t", versionInURL: nil, delivery: .highQualityFormat)

    private static func entry(bytes: Int, generation: Int = 0) -> ReadyAnswers.Entry {
        ReadyAnswers.Entry(
            generation: generation, validators: validators, route: .thumbnail,
            image: .image(
                [UInt8](repeating: 1, count: bytes), format: .jpeg, from: .memory, validators: validators))
    }

    @Test func anAnswerHoldsUntilTheLibraryChanges() {
        let answers = ReadyAnswers(byteLimit: 1000)
        answers.insert(Self.entry(bytes: 10, generation: 3), for: "/thumbnails/a/grid")
        #expect(answers.entry(for: "/thumbnails/a/grid", generation: 3)?.ok.answer.body?.readableBytes == 10)
        #expect(answers.entry(for: "/thumbnails/a/grid", generation: 4) == nil)
        // Dropped, not kept for a later look at the old generation.
        #expect(answers.entry(for: "/thumbnails/a/grid", generation: 3) == nil)
    }

    @Test func anEntryKeepsBothAnswersEncodedAndPicksOneAsTheRouteWould() {
        let entry = Self.entry(bytes: 3)
        let image = ThumbnailAnswer.image([1, 1, 1], format: .jpeg, from: .memory, validators: Self.validators)
        #expect(entry.ok.head == image.encodedHead())
        #expect(entry.notModified.head == ThumbnailAnswer.notModified(Self.validators).encodedHead())
        #expect(entry.answer(ifNoneMatch: ["\"v-t\""]).answer.status == .notModified)
        #expect(entry.answer(ifNoneMatch: ["\"v-other\""]).answer.status == .ok)
        #expect(entry.answer(ifNoneMatch: []).answer.tier == .memory)
    }

    @Test func answersStayWithinTheirBytes() {
        // Each entry keeps its body and its two encoded heads (about 230 bytes in all).
        let answers = ReadyAnswers(byteLimit: 1300)
        for index in 0..<10 { answers.insert(Self.entry(bytes: 150), for: "/t/\(index)") }
        let kept = (0..<10).filter { answers.entry(for: "/t/\($0)", generation: 0) != nil }
        #expect(kept.count == 3 && kept.contains(9))
        answers.insert(Self.entry(bytes: 2000), for: "/t/huge")
        #expect(answers.entry(for: "/t/huge", generation: 0) == nil)
    }
}
