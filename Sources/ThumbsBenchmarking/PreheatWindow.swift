/// Which cells to preheat while a grid scrolls, by a ``PreheatRule``.
///
/// Cells that entered the window in an update are to be `startCaching`, those that left it
/// `stopCaching`.
/// ```swift
/// var window = PreheatWindow(grid: grid, rule: .followingScroll)
/// if let change = window.update(offset: 12.5, at: seconds) {
///     manager.startCaching(assets: change.entered.map { assets[$0] }, targetSize: size, contentMode: .aspectFill)
///     manager.stopCaching(assets: change.left.map { assets[$0] }, targetSize: size, contentMode: .aspectFill)
/// }
/// ```
package struct PreheatWindow: Sendable {
    /// Cells that entered and left the window in one update, each in index order.
    package struct Change: Sendable, Hashable {
        package var entered: [Int]
        package var left: [Int]
    }

    package let grid: ScrollGrid
    package let rule: PreheatRule
    /// ``PreheatRule/followingScroll``: how far ahead the window reaches, in seconds of the
    /// current speed. Default: 2.
    package var lookaheadSeconds = 2.0
    /// ``PreheatRule/followingScroll``: above this speed nothing is preheated. Default: 5 rows a
    /// second (20 cells of a 4-column grid). A grid that knows what its renders cost sets it to
    /// the rows a second its render threads render, as ``DeliveryBenchmark`` does every frame.
    package var fastestRowsPerSecond = 5.0
    /// The window as last updated, or nil before the first update (or while it is empty).
    package private(set) var rect: ClosedRange<Double>?
    /// The scroll's speed, in rows a second (negative upwards), measured over the last tenth of
    /// a second or more.
    package private(set) var rowsPerSecond = 0.0
    private var lastSample: (offset: Double, seconds: Double)?

    /// A window by Apple's rule.
    package init(grid: ScrollGrid) {
        self.init(grid: grid, rule: .apple)
    }

    package init(grid: ScrollGrid, rule: PreheatRule) {
        self.grid = grid
        self.rule = rule
    }

    /// The cells inside the window now.
    package var cells: Range<Int> { rect.map(grid.indices(in:)) ?? 0..<0 }

    /// Whether the scroll is too fast to keep up with (``PreheatRule/followingScroll`` only):
    /// while it is, a grid should ask only for cheap degraded images.
    package var isTooFast: Bool { rule == .followingScroll && abs(rowsPerSecond) > fastestRowsPerSecond }

    /// Moves the window for a view scrolled to `offset` (Apple's rule, which ignores time); nil
    /// when it moved too little to update.
    package mutating func update(offset: Double) -> Change? {
        update(offset: offset, at: 0)
    }

    /// Moves the window for a view scrolled to `offset` at `seconds` (any clock, in seconds);
    /// nil when no cell entered or left it.
    package mutating func update(offset: Double, at seconds: Double) -> Change? {
        let window: ClosedRange<Double>?
        switch rule {
        case .apple:
            let visible = grid.visibleRect(at: offset)
            let half = grid.visibleRows / 2
            let extended = (visible.lowerBound - half)...(visible.upperBound + half)
            // Apple's sample starts from an empty rect at the origin: the first call always updates.
            let previousMiddle = rect.map { ($0.lowerBound + $0.upperBound) / 2 } ?? 0
            let middle = (extended.lowerBound + extended.upperBound) / 2
            guard rect == nil || abs(middle - previousMiddle) > grid.visibleRows / 3 else { return nil }
            window = extended
        case .followingScroll:
            measureSpeed(offset: offset, at: seconds)
            window = isTooFast ? nil : following(offset: offset)
        }
        let before = cells
        rect = window
        let after = cells
        guard rule == .apple || before != after else { return nil }
        return Change(entered: after.filter { !before.contains($0) }, left: before.filter { !after.contains($0) })
    }

    /// The view and, in the direction it moves, the rows the scroll reaches in the lookahead.
    private func following(offset: Double) -> ClosedRange<Double> {
        let visible = grid.visibleRect(at: offset)
        let ahead = max(grid.visibleRows / 2, abs(rowsPerSecond) * lookaheadSeconds)
        return rowsPerSecond >= 0
            ? visible.lowerBound...(visible.upperBound + ahead) : (visible.lowerBound - ahead)...visible.upperBound
    }

    private mutating func measureSpeed(offset: Double, at seconds: Double) {
        guard let last = lastSample else {
            lastSample = (offset, seconds)
            return
        }
        let interval = seconds - last.seconds
        guard interval >= 0.1 else { return }
        rowsPerSecond = (offset - last.offset) / interval
        lastSample = (offset, seconds)
    }
}
