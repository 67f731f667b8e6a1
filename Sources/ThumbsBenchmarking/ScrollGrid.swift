/// A grid of square cells, `columns` wide, seen through a view `visibleRows` rows high: the
/// geometry of a photo grid, in units of one row.
///
/// ```swift
/// let grid = ScrollGrid(count: 1_000, columns: 4, visibleRows: 6)
/// grid.indices(in: 0...6)   // 0..<28: the rows that top 0 and bottom 6 touch
/// ```
package struct ScrollGrid: Sendable, Hashable, Codable {
    /// Cells in the grid (assets in the fetch result).
    package var count: Int
    package var columns: Int
    /// The view's height, in rows.
    package var visibleRows: Double

    package init(count: Int, columns: Int = 4, visibleRows: Double = 6) {
        self.count = max(0, count)
        self.columns = max(1, columns)
        self.visibleRows = max(1, visibleRows)
    }

    /// The grid's height, in rows.
    package var contentRows: Double { Double((count + columns - 1) / columns) }

    /// The furthest the top of the view can scroll.
    package var maximumOffset: Double { max(0, contentRows - visibleRows) }

    /// The part of the grid the view shows when scrolled to `offset`.
    package func visibleRect(at offset: Double) -> ClosedRange<Double> { offset...(offset + visibleRows) }

    /// The cells that a vertical span touches (open at both ends: a row merely bordering the span
    /// is not in it).
    package func indices(in span: ClosedRange<Double>) -> Range<Int> {
        let firstRow = max(0, Int(span.lowerBound.rounded(.down)))
        let endRow = max(firstRow, Int(span.upperBound.rounded(.up)))
        let lower = min(count, firstRow * columns), upper = min(count, endRow * columns)
        return lower..<upper
    }

    /// The top of a cell's row.
    package func row(of index: Int) -> Double { Double(index / columns) }
}
