import Testing
@testable import ThumbsBenchmarking
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

@Suite struct ScrollGridTests {
    let grid = ScrollGrid(count: 30, columns: 4, visibleRows: 6)

    @Test func rowsTouchedBySpan() {
        #expect(grid.indices(in: 0...6) == 0..<24)
        #expect(grid.indices(in: 0.5...6.5) == 0..<28)
        #expect(grid.indices(in: -3...1) == 0..<4)
        #expect(grid.indices(in: 7...20) == 28..<30, "the last row is partly filled; past the end is empty")
    }

    @Test func scrollExtent() {
        #expect(grid.contentRows == 8)
        #expect(grid.maximumOffset == 2)
        #expect(ScrollGrid(count: 3, columns: 4, visibleRows: 6).maximumOffset == 0)
        #expect(grid.row(of: 9) == 2)
    }
}
