/// How a ``PreheatWindow`` moves with the scroll.
public enum PreheatRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple's PhotoKit sample (`AssetGridViewController.updateCachedAssets`): the visible rect
    /// extended by half its height above and below, moved only when its middle has moved more
    /// than a third of the view's height.
    case apple
    /// Follows the scroll: ahead of the view in the direction it moves, as far as
    /// ``PreheatWindow/lookaheadSeconds`` of the current speed carry it (at least half a
    /// screen), nothing behind it, moved every frame, so a cell the view has passed stops being
    /// preheated at once. Faster than ``PreheatWindow/fastestRowsPerSecond`` (more cells than the
    /// render threads can keep up with) the window is empty: the grid then asks only for cheap
    /// degraded images, and for finals once the scroll slows (the seed idea: no requests above a
    /// velocity).
    case followingScroll = "following"
}
