import ThumbsImaging
import ThumbsLibrary
import ThumbsPipeline
import ThumbsSupport

/// Which cells to preheat while a grid scrolls, by the rule of Apple's PhotoKit sample
/// (`AssetGridViewController.updateCachedAssets`).
///
/// The window is the visible rect extended by half its height above and below. It moves only
/// when its middle has moved more than a third of the view's height since the last update; then
/// cells that entered it are to be `startCaching`, those that left it `stopCaching`.
/// ```swift
/// var window = PreheatWindow(grid: grid)
/// if let change = window.update(offset: 12.5) {
///     manager.startCaching(assets: change.entered.map { assets[$0] }, targetSize: size, contentMode: .aspectFill)
///     manager.stopCaching(assets: change.left.map { assets[$0] }, targetSize: size, contentMode: .aspectFill)
/// }
/// ```
public struct PreheatWindow: Sendable {
    /// Cells that entered and left the window in one update, each in index order.
    public struct Change: Sendable, Hashable {
        public var entered: [Int]
        public var left: [Int]
    }

    public let grid: ScrollGrid
    /// The window as last updated, or nil before the first update.
    public private(set) var rect: ClosedRange<Double>?

    public init(grid: ScrollGrid) {
        self.grid = grid
    }

    /// The cells inside the window now.
    public var cells: Range<Int> { rect.map(grid.indices(in:)) ?? 0..<0 }

    /// Moves the window for a view scrolled to `offset`; nil when it moved too little to update.
    public mutating func update(offset: Double) -> Change? {
        let visible = grid.visibleRect(at: offset)
        let half = grid.visibleRows / 2
        let window = (visible.lowerBound - half)...(visible.upperBound + half)
        // Apple's sample starts from an empty rect at the origin: the first call always updates.
        let previousMiddle = rect.map { ($0.lowerBound + $0.upperBound) / 2 } ?? 0
        let middle = (window.lowerBound + window.upperBound) / 2
        guard rect == nil || abs(middle - previousMiddle) > grid.visibleRows / 3 else { return nil }
        let before = cells
        rect = window
        let after = cells
        return Change(entered: after.filter { !before.contains($0) }, left: before.filter { !after.contains($0) })
    }
}
