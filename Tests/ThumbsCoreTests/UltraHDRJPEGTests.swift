import Testing
import ThumbsCore

/// The Ultra HDR layout, on JPEG-shaped bytes (the layout reads only markers and lengths).
@Suite struct UltraHDRJPEGTests {
    /// A JPEG's outline: SOI, a JFIF APP0, a quantisation table, a scan, EOI.
    private static func jpeg(_ filler: UInt8, count: Int) -> [UInt8] {
        [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF\0".utf8) + [1, 1, 0, 0, 1, 0, 1, 0, 0]
            + [0xFF, 0xDB, 0x00, 0x04, 0x00, 0x01] + [0xFF, 0xDA, 0x00, 0x02]
            + Array(repeating: filler, count: count) + [0xFF, 0xD9]
    }

    private static let gainMapXMP = #"<x:xmpmeta><rdf:Description hdrgm:HDRCapacityMax="2.5"/></x:xmpmeta>"#
    private static let iso: [UInt8] = [0, 0, 0, 0, 0x40, 1, 2, 3]

    private static func assemble(_ primary: [UInt8], _ gainMap: [UInt8]) -> [UInt8]? {
        UltraHDRJPEG.assemble(primary: primary, gainMap: gainMap, gainMapXMP: gainMapXMP, gainMapISO21496: iso)
    }

    @Test func theGainMapIsFoundWhereTheIndexSaysWithItsHeadroom() throws {
        let primary = Self.jpeg(0x11, count: 300), gainMap = Self.jpeg(0x22, count: 40)
        let file = try #require(Self.assemble(primary, gainMap))
        let range = try #require(UltraHDRJPEG.gainMapRange(in: file, length: file.count))
        #expect(range.upperBound == file.count)
        let found = Array(file[range])
        // The gain map keeps its pixels, its metadata inserted after its JFIF segment.
        #expect(found.suffix(44) == gainMap.suffix(44))
        #expect(UltraHDRJPEG.xmpPacket(in: found).map { String(decoding: $0, as: UTF8.self) } == Self.gainMapXMP)
        #expect(UltraHDRJPEG.iso21496Payload(in: found) == Self.iso)
        #expect(UltraHDRJPEG.headroom(of: file) == 2.5)
        // The primary is the picture it was, with its XMP directory and MPF index added.
        let primaryPart = Array(file[..<range.lowerBound])
        #expect(primaryPart.prefix(20) == primary.prefix(20))
        #expect(primaryPart.suffix(306) == primary.suffix(306))
        let directory = String(decoding: try #require(UltraHDRJPEG.xmpPacket(in: primaryPart)), as: UTF8.self)
        #expect(directory.contains(#"hdrgm:Version="1.0""#))
        #expect(directory.contains(#"Item:Semantic="GainMap" Item:Mime="image/jpeg" Item:Length="\#(range.count)""#))
        // The primary's ISO 21496-1 segment holds the versions alone.
        #expect(UltraHDRJPEG.iso21496Payload(in: primaryPart) == [0, 0, 0, 0])
    }

    @Test func aFileWithoutAnIndexOrWithAnIndexPastItsEndHasNoGainMap() throws {
        let plain = Self.jpeg(0x11, count: 100)
        #expect(UltraHDRJPEG.gainMapRange(in: plain, length: plain.count) == nil)
        #expect(UltraHDRJPEG.headroom(of: plain) == nil)
        let file = try #require(Self.assemble(plain, Self.jpeg(0x22, count: 10)))
        // Cut short: the entry points past the end.
        let cut = Array(file.dropLast(5))
        #expect(UltraHDRJPEG.gainMapRange(in: cut, length: cut.count) == nil)
        // Every truncation and every single-byte change reads without trapping.
        for length in stride(from: 0, to: file.count, by: 7) {
            _ = UltraHDRJPEG.gainMapRange(in: Array(file.prefix(length)), length: file.count)
        }
        for position in 0..<min(file.count, 400) {
            var damaged = file
            damaged[position] ^= 0xA5
            _ = UltraHDRJPEG.headroom(of: damaged)
        }
        #expect(Self.assemble([1, 2, 3], plain) == nil)
    }
}
