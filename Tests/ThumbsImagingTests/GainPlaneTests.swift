import Testing
import ThumbsCore
import ThumbsImaging

@Suite struct GainPlaneTests {
    /// A 3 × 2 plane whose values number its pixels: 0 1 2 / 3 4 5.
    private let plane = GainPlane(size: PixelSize(width: 3, height: 2), channels: 1, values: [0, 1, 2, 3, 4, 5])!

    /// Each EXIF orientation turns the plane as it turns a picture stored so: the upright
    /// plane's rows, read from the stored one.
    @Test(arguments: [
        (1, [[0, 1, 2], [3, 4, 5]]), (2, [[2, 1, 0], [5, 4, 3]]), (3, [[5, 4, 3], [2, 1, 0]]),
        (4, [[3, 4, 5], [0, 1, 2]]), (5, [[0, 3], [1, 4], [2, 5]]), (6, [[3, 0], [4, 1], [5, 2]]),
        (7, [[5, 2], [4, 1], [3, 0]]), (8, [[2, 5], [1, 4], [0, 3]]),
    ])
    func turnsUprightAsAPictureIs(orientation: Int, rows: [[Float]]) {
        let upright = plane.upright(orientation: orientation)
        #expect(upright.size == PixelSize(width: rows[0].count, height: rows.count))
        #expect(upright.values == rows.flatMap { $0 }, "orientation \(orientation)")
    }

    @Test func shrinksByAreaAndCropsTheCentreForAFill() throws {
        let wide = try #require(
            GainPlane(size: PixelSize(width: 4, height: 2), channels: 1, values: [0, 2, 4, 6, 8, 10, 12, 14]))
        // Half across and down: each value the mean of its 2 × 2 block.
        #expect(wide.resampled(to: PixelSize(width: 2, height: 1), fill: false).values == [5, 9])
        // A square fill: the centre 2 × 2, averaged.
        #expect(wide.resampled(to: PixelSize(width: 1, height: 1), fill: true).values == [7])
        // Grown: interpolated between neighbours, the edges held.
        let grown = wide.resampled(to: PixelSize(width: 8, height: 2), fill: false)
        #expect(grown.values.prefix(8).map { ($0 * 4).rounded() / 4 } == [0, 0.5, 1.5, 2.5, 3.5, 4.5, 5.5, 6])
    }

    @Test func threeChannelsStayApart() throws {
        let rgb = try #require(
            GainPlane(size: PixelSize(width: 2, height: 1), channels: 3, values: [1, 10, 100, 3, 30, 300]))
        #expect(rgb.resampled(to: PixelSize(width: 1, height: 1), fill: false).values == [2, 20, 200])
        #expect(GainPlane(size: PixelSize(width: 2, height: 1), channels: 2, values: [0, 0, 0, 0]) == nil)
    }
}
