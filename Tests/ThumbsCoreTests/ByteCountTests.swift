import Testing
@testable import ThumbsCore

@Suite struct ByteCountTests {
    @Test func parsesWhatPeopleWrite() {
        #expect(ByteCount(parsing: "2 GiB")?.bytes == 2 << 30)
        #expect(ByteCount(parsing: "2GiB")?.bytes == 2 << 30)
        #expect(ByteCount(parsing: "500 MB")?.bytes == 500_000_000)
        #expect(ByteCount(parsing: "64k")?.bytes == 65_536)
        #expect(ByteCount(parsing: "1.5 G")?.bytes == 3 << 29)
        #expect(ByteCount(parsing: "1048576")?.bytes == 1_048_576)
    }

    @Test func rejectsNonsense() {
        for text in ["", "lots", "2 GiBs", "-1 MB", "1,5 GB", "99999999999 TiB", "8 EiB", "1e400"] {
            #expect(ByteCount(parsing: text) == nil, "\(text)")
        }
    }

    @Test func theLargestSizeIsAnInt64() {
        #expect(ByteCount(parsing: "8388607 TiB")?.bytes == 8_388_607 << 40)
        #expect(ByteCount(parsing: "9223372036854775807") == nil, "rounds up to 2^63 as a Double")
        #expect(ByteCount.maximum.bytes == Int64.max)
    }

    @Test func printsReadably() {
        #expect(ByteCount(512).description == "512 B")
        #expect(ByteCount(20 * 1024).description == "20.0 KiB")
        #expect(ByteCount(3 << 29).description == "1.5 GiB")
    }
}
