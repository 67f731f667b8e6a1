/// How a ``PreheatWindow`` moves with the scroll.
package enum PreheatRule: String, Sendable, Hashable, Codable, CaseIterable {
    /// Apple's PhotoKit sample (`AssetGridViewController.updateCachedAssets`): the visible rect
    /// extended by half its height above and below, moved only when its middle has moved more
    /// than a third of the view's height.
    case apple
    /// Follows the scroll: ahead of the view in the direction it moves, as far as
    /// ``PreheatWindow/lookaheadSeconds`` of the current speed carry it (at least half a
    /// screen), nothing behind it, moved every frame, so a cell the view has passed stops being
    /// preheated at once. Faster than ``PreheatWindow/fastestRowsPerSecond`` (more cells than the
    /// render threads can keep up with) the window is empty, and the cells that have a cheap
    /// degraded image (an embedded preview) ask only for that until the scroll slows (the seed
    /// idea: no requests above a velocity), leaving the render threads to the cells that have
    /// nothing else to show.
    case followingScroll = "following"
}
