import Testing
@testable import ThumbsBenchmarking
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsTesting

/// Apple's rule: visible rect ± half its height, moved after a third of the view's height.
@Suite struct PreheatWindowTests {
    let grid = ScrollGrid(count: 400, columns: 4, visibleRows: 6)

    @Test func firstUpdateCoversTheViewAndHalfAViewBelow() throws {
        var window = PreheatWindow(grid: grid)
        let changeUpdate = window.update(offset: 0)
        let change = try #require(changeUpdate)
        #expect(window.rect == -3...9)
        #expect(change.entered == Array(0..<36), "rows 0..<9: the visible six and three below")
        #expect(change.left.isEmpty)
    }

    @Test func movesOnlyAfterAThirdOfTheViewHeight() throws {
        var window = PreheatWindow(grid: grid)
        _ = window.update(offset: 0)
        let small = window.update(offset: 1.9)
        #expect(small == nil, "1.9 rows is less than a third of 6")
        let third = window.update(offset: 2.0)
        #expect(third == nil, "exactly a third does not move it either")
        let changeUpdate = window.update(offset: 2.5)
        let change = try #require(changeUpdate)
        #expect(window.rect == -0.5...11.5)
        #expect(change.entered == Array(36..<48), "rows 9, 10 and 11 entered")
        #expect(change.left.isEmpty, "row 0 is still touched by the window")
        let nextUpdate = window.update(offset: 5)
        let next = try #require(nextUpdate)
        #expect(next.left == Array(0..<8), "rows 0 and 1 left")
        #expect(next.entered == Array(48..<56))
    }

    @Test func scrollingBackUpBringsCellsBack() throws {
        var window = PreheatWindow(grid: grid)
        _ = window.update(offset: 30)
        let changeUpdate = window.update(offset: 20)
        let change = try #require(changeUpdate)
        #expect(change.entered.first == 17 * 4 && change.left.last == 39 * 4 - 1)
        #expect(Set(change.entered).isDisjoint(with: change.left))
    }
}
