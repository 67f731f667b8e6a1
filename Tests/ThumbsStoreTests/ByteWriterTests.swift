import Testing
@testable import ThumbsStore

@Suite struct ByteWriterTests {
    private func readBack(_ value: String) throws -> String {
        var writer = ByteWriter()
        writer.string(value)
        return try writer.bytes.withUnsafeBytes { bytes throws(StoreError) in
            var reader = ByteReader(bytes, record: "test")
            return try reader.string()
        }
    }

    @Test func writesAStringWhole() throws {
        #expect(try readBack("Canon PowerShot SD750") == "Canon PowerShot SD750")
        #expect(try readBack("") == "")
    }

    /// A string past what a record holds is cut where a character starts, never inside one.
    @Test func cutsALongStringBetweenCharacters() throws {
        let fits = String(repeating: "a", count: 65_534)
        #expect(try readBack(fits + "é") == fits, "é is two bytes: the cut falls inside it")
        #expect(try readBack(fits + "ab") == fits + "a")
        #expect(try readBack(String(repeating: "€", count: 30_000)) == String(repeating: "€", count: 21_845))
    }
}
