import Testing
@testable import ThumbsBenchmarking
import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsStore
import ThumbsSupport
import ThumbsTestSupport
import ThumbsSamples

/// Apple's rule: visible rect ± half its height, moved after a third of the view's height. The
/// rule that follows the scroll: ahead only, by speed, every frame, empty above a speed.
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

    /// `rect`'s bounds, to a millionth of a row.
    private func bounds(_ window: PreheatWindow) -> [Double]? {
        window.rect.map { [$0.lowerBound, $0.upperBound].map { ($0 * 1e6).rounded() / 1e6 } }
    }

    @Test func theFollowingWindowReachesAheadByTheSpeedAndKeepsNothingBehind() throws {
        var window = PreheatWindow(grid: grid, rule: .followingScroll)
        let firstUpdate = window.update(offset: 0, at: 0)
        let first = try #require(firstUpdate)
        #expect(bounds(window) == [0, 9], "at rest: the view and half a view ahead, nothing behind")
        #expect(first.entered == Array(0..<36))
        // Speed is measured over a tenth of a second or more: not yet.
        _ = window.update(offset: 0.1, at: 0.05)
        #expect(window.rowsPerSecond == 0)
        // 2 rows a second: two seconds ahead is 4 rows, more than half a view.
        let movingUpdate = window.update(offset: 0.2, at: 0.1)
        let moving = try #require(movingUpdate)
        #expect(abs(window.rowsPerSecond - 2) < 1e-9 && !window.isTooFast)
        #expect(bounds(window) == [0.2, 10.2])
        #expect(moving.entered == Array(40..<44) && moving.left.isEmpty)
        // 4 rows a second reaches 8 rows ahead; the row the view has left is dropped at once.
        let fasterUpdate = window.update(offset: 1.2, at: 0.35)
        let faster = try #require(fasterUpdate)
        #expect(abs(window.rowsPerSecond - 4) < 1e-9)
        #expect(bounds(window) == [1.2, 15.2])
        #expect(faster.left == Array(0..<4), "row 0 is behind the view: no longer preheated")
        #expect(faster.entered == Array(44..<64))
    }

    @Test func theFollowingWindowEmptiesWhileTheScrollIsTooFastAndComesBackWhenItSlows() throws {
        var window = PreheatWindow(grid: grid, rule: .followingScroll)
        _ = window.update(offset: 0, at: 0)
        let flickUpdate = window.update(offset: 2, at: 0.2)
        let flick = try #require(flickUpdate)
        #expect(window.isTooFast && window.rect == nil, "10 rows a second is past the 5 it keeps up with")
        #expect(flick.left == Array(0..<36) && flick.entered.isEmpty)
        let stillFast = window.update(offset: 2.5, at: 0.25)
        #expect(stillFast == nil, "nothing changes while it stays fast")
        let slowedUpdate = window.update(offset: 2.6, at: 0.4)
        let slowed = try #require(slowedUpdate)
        #expect(!window.isTooFast && bounds(window) == [2.6, 14.6], "3 rows a second: 6 rows ahead")
        #expect(slowed.entered == Array(8..<60))
    }

    @Test func scrollingUpTheFollowingWindowReachesAbove() throws {
        var window = PreheatWindow(grid: grid, rule: .followingScroll)
        _ = window.update(offset: 40, at: 0)
        _ = window.update(offset: 39.6, at: 0.2)
        #expect(window.rowsPerSecond < 0)
        #expect(bounds(window) == [35.6, 45.6], "4 rows above, the view itself, nothing below")
    }
}
