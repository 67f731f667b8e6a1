import Testing
import ThumbsPipeline

@Suite struct DeliveryModeTests {
    /// PhotoKit's names and a thumbnail URL's short ones name the same modes.
    @Test func bothSpellingsNameAMode() {
        #expect(DeliveryMode(name: "final") == .highQualityFormat)
        #expect(DeliveryMode(name: "highQualityFormat") == .highQualityFormat)
        #expect(DeliveryMode(name: "fast") == .fastFormat)
        #expect(DeliveryMode(name: "fastFormat") == .fastFormat)
        #expect(DeliveryMode(name: "opportunistic") == .opportunistic)
        for mode in DeliveryMode.allCases { #expect(DeliveryMode(name: mode.rawValue) == mode) }
        #expect(DeliveryMode(name: "sometimes") == nil && DeliveryMode(name: "") == nil)
        #expect(DeliveryMode(name: "Final") == nil, "names are case-sensitive, as config.json's")
    }
}
