import Testing
import ThumbsSupport

/// The hash every id and tag is made with: the same values whatever the bytes' container.
@Suite struct FNV1aTests {
    /// FNV-1a's published test values, and the same hash of contiguous and other sequences.
    @Test func hashesAsPublishedWhateverHoldsTheBytes() {
        var empty = FNV1a()
        empty.add([UInt8]())
        #expect(empty.value == 0xCBF2_9CE4_8422_2325)
        var contiguous = FNV1a(), lazy = FNV1a(), string = FNV1a()
        contiguous.add(Array("foobar".utf8))
        lazy.add("foobar".utf8.lazy.map { $0 })
        string.add("foobar".utf8)
        #expect(contiguous.value == 0x8594_4171_F739_67E8)
        #expect(lazy.value == contiguous.value && string.value == contiguous.value)
    }

    @Test func hexDigitsAreSixteenLowerCaseAndZeroPadded() {
        #expect(UInt64(0).hexDigits == "0000000000000000")
        #expect(UInt64(0xABC).hexDigits == "0000000000000abc")
        #expect(UInt64.max.hexDigits == "ffffffffffffffff")
        #expect(UInt64(0x0123_4567_89AB_CDEF).hexDigits == "0123456789abcdef")
    }
}
