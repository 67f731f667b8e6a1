import Testing

@testable import ThumbsServer

@Suite struct ByteRangeRequestTests {
    @Test func oneRangeOfEachForm() {
        #expect(ByteRangeRequest("bytes=0-99", length: 1000) == .part(0...99))
        #expect(ByteRangeRequest("bytes=500-", length: 1000) == .part(500...999))
        #expect(ByteRangeRequest("bytes=-100", length: 1000) == .part(900...999))
        #expect(ByteRangeRequest("bytes=900-5000", length: 1000) == .part(900...999), "an end past the body is cut")
        #expect(ByteRangeRequest("bytes=-5000", length: 1000) == .part(0...999))
        #expect(ByteRangeRequest("bytes= 0 - 1 ", length: 1000) == .part(0...1))
        #expect(ByteRangeRequest("Bytes=0-1", length: 1000) == .part(0...1), "the unit is case-insensitive")
    }

    @Test func whatCannotBeSatisfiedIs416() {
        #expect(ByteRangeRequest("bytes=1000-", length: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest("bytes=-0", length: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest("bytes=0-", length: 0) == .unsatisfiable)
    }

    /// Invalid or several ranges are ignored, as RFC 9110 allows: the whole body is sent.
    @Test func whatIsNotOneValidRangeGetsTheWholeBody() {
        for field in [
            nil, "", "items=0-1", "bytes=0-1,5-6", "bytes=5-2", "bytes=a-b", "bytes=-", "bytes=1", "bytes=2000-abc",
            "bytes=+5-", "bytes=-+5",
        ] {
            #expect(ByteRangeRequest(field, length: 1000) == .whole, "\(field ?? "none")")
        }
        #expect(ByteRangeRequest("bytes=18446744073709551615-", length: 1000) == .unsatisfiable)
        #expect(ByteRangeRequest("bytes=0-18446744073709551616", length: 1000) == .whole, "past UInt64: not a number")
    }
}
