import Testing

@testable import ThumbsImaging

/// Properties found in XMP packets written in attribute and element form, under the packet's
/// own prefixes, and nothing found in broken packets.
@Suite struct XMPPacketTests {
    static let panorama = "http://ns.google.com/photos/1.0/panorama/"

    @Test func readsAttributesAndElementsUnderTheBoundPrefix() {
        let attribute = XMPPacket(
            Array(#"<rdf:Description xmlns:P="\#(Self.panorama)" P:ProjectionType = 'equirectangular'/>"#.utf8))
        #expect(attribute.value(of: "ProjectionType", in: Self.panorama, conventionally: "GPano") == "equirectangular")
        #expect(attribute.binds(Self.panorama) && attribute.prefix(of: Self.panorama, else: "GPano") == "P")
        let element = XMPPacket(Array("<GPano:ProjectionType>\n cylindrical </GPano:ProjectionType>".utf8))
        #expect(element.value(of: "ProjectionType", in: Self.panorama, conventionally: "GPano") == "cylindrical")
        #expect(!element.binds(Self.panorama))
        // A longer name is another property.
        let longer = XMPPacket(Array(#"<x GPano:ProjectionTypeX="a"/>"#.utf8))
        #expect(longer.value(of: "ProjectionType", in: Self.panorama, conventionally: "GPano") == nil)
    }

    @Test func elementsRunToTheNextOfTheirName() {
        let packet = XMPPacket(Array(#"<C:Item I:Semantic="Primary"/><C:Items/><C:Item I:Semantic="GainMap"/>"#.utf8))
        let items = packet.elements(named: "C:Item")
        #expect(items.count == 2)
        #expect(items.map { packet.value(of: "I:Semantic", in: $0) } == ["Primary", "GainMap"])
    }

    @Test(arguments: ["", "<", "<GPano:ProjectionType>", "<GPano:ProjectionType/>", #" GPano:ProjectionType="x"#])
    func aBrokenPacketGivesNothing(text: String) {
        #expect(
            XMPPacket(Array(text.utf8)).value(of: "ProjectionType", in: Self.panorama, conventionally: "GPano") == nil)
    }
}
