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
