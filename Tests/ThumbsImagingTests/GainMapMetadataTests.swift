import Testing
import ThumbsImaging

@Suite struct GainMapMetadataTests {
    private static func packet(_ text: String) -> XMPPacket { XMPPacket(Array(text.utf8)) }

    @Test func whatItWritesReadsBackInOneChannelOrThree() throws {
        let one = GainMapMetadata(
            minimum: [-0.25], maximum: [2.5], gamma: [1], offsetSDR: [1.0 / 64], offsetHDR: [1.0 / 64],
            capacityMinimum: 0, capacityMaximum: 2.5)
        #expect(GainMapMetadata(xmp: Self.packet(one.xmp)) == one)
        let three = GainMapMetadata(
            minimum: [-0.25, -0.5, 0], maximum: [1.25, 1.5, 2], gamma: [0.9, 1, 1.1], offsetSDR: [0, 0, 0],
            offsetHDR: [0.015625, 0.015625, 0.015625], capacityMinimum: 0.5, capacityMaximum: 2)
        #expect(GainMapMetadata(xmp: Self.packet(three.xmp)) == three)
    }

    /// Google's own files write their metadata as elements, some of it one value for three
    /// channels; what they leave out is the format's default.
    @Test func readsElementsAndDefaults() throws {
        let metadata = try #require(
            GainMapMetadata(
                xmp: Self.packet(
                    """
                    <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
                    <rdf:Description xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" hdrgm:Version="1.0"
                      hdrgm:GainMapMax="3" hdrgm:HDRCapacityMax="3">
                      <hdrgm:GainMapMin><rdf:Seq><rdf:li>-0.1</rdf:li><rdf:li>-0.2</rdf:li><rdf:li>-0.3</rdf:li></rdf:Seq></hdrgm:GainMapMin>
                    </rdf:Description></rdf:RDF></x:xmpmeta>
                    """)))
        #expect(metadata.minimum == [-0.1, -0.2, -0.3] && metadata.maximum == [3, 3, 3])
        #expect(metadata.gamma == [1, 1, 1] && metadata.offsetSDR == [1.0 / 64, 1.0 / 64, 1.0 / 64])
        #expect(metadata.capacityMinimum == 0 && metadata.capacityMaximum == 3)
    }

    @Test func refusesAnHDRBaseNoVersionAndValuesOutOfRange() {
        let ns = #"xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/""#
        for attributes in [
            #"hdrgm:Version="1.0" hdrgm:BaseRenditionIsHDR="True""#, #"hdrgm:GainMapMax="2""#,
            #"hdrgm:Version="1.0" hdrgm:GainMapMin="3" hdrgm:GainMapMax="2""#,
            #"hdrgm:Version="1.0" hdrgm:Gamma="0""#, #"hdrgm:Version="1.0" hdrgm:GainMapMax="nan""#,
            #"hdrgm:Version="1.0" hdrgm:HDRCapacityMin="2" hdrgm:HDRCapacityMax="1""#,
        ] {
            #expect(GainMapMetadata(xmp: Self.packet("<rdf:Description \(ns) \(attributes)/>")) == nil, "\(attributes)")
        }
    }
}

/// ISO 21496-1's binary form, laid out as Chromium's reader (Skia's `SkGainmapInfo`) reads it.
@Suite struct GainMapMetadataISO21496Tests {
    private static let one = GainMapMetadata(
        minimum: [-0.5], maximum: [2.5], gamma: [1], offsetSDR: [1.0 / 64], offsetHDR: [1.0 / 64], capacityMinimum: 0,
        capacityMaximum: 2.5)

    /// Big-endian rationals over 2^20: the versions, the flags (one channel, the base picture's
    /// colour space), the two headrooms, then the channel's five values.
    @Test func oneChannelIsLaidOutFieldByField() {
        let denominator: [UInt8] = [0, 0x10, 0, 0]
        func rational(_ numerator: Int32) -> [UInt8] {
            let bits = UInt32(bitPattern: numerator)
            return [UInt8(bits >> 24), UInt8((bits >> 16) & 0xFF), UInt8((bits >> 8) & 0xFF), UInt8(bits & 0xFF)]
                + denominator
        }
        let expected: [UInt8] =
            [0, 0, 0, 0, 0x40] + rational(0) + rational(5 << 19) + rational(-(1 << 19)) + rational(5 << 19)
            + rational(1 << 20) + rational(1 << 14) + rational(1 << 14)
        #expect(Self.one.iso21496 == expected)
    }

    @Test func whatItWritesReadsBackInOneChannelOrThree() throws {
        #expect(GainMapMetadata(iso21496: Self.one.iso21496) == Self.one)
        let three = GainMapMetadata(
            minimum: [-0.25, -0.5, 0], maximum: [1.25, 1.5, 2], gamma: [0.5, 1, 2], offsetSDR: [0, 0, 0],
            offsetHDR: [0.25, 0.25, 0.25], capacityMinimum: 0.5, capacityMaximum: 2)
        #expect(three.iso21496[4] == 0xC0)
        #expect(GainMapMetadata(iso21496: three.iso21496) == three)
    }

    @Test func refusesAnotherVersionAnHDRBaseACutAndAZeroDenominator() {
        let bytes = Self.one.iso21496
        #expect(GainMapMetadata(iso21496: [0, 1] + bytes.dropFirst(2)) == nil)
        for length in 0..<bytes.count { #expect(GainMapMetadata(iso21496: Array(bytes.prefix(length))) == nil) }
        var hdrBase = Self.one
        hdrBase.capacityMinimum = 3
        #expect(GainMapMetadata(iso21496: hdrBase.iso21496) == nil)
        var zero = bytes
        zero.replaceSubrange(9..<13, with: [0, 0, 0, 0])
        #expect(GainMapMetadata(iso21496: zero) == nil)
    }
}
