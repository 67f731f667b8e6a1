/// A rectangle in fractions of an image's upright size: (0, 0, 1, 1) is the whole image.
public struct NormalizedRect: Sendable, Hashable {
    public var x: Double, y: Double, width: Double, height: Double

    public init(x: Double, y: Double, width: Double, height: Double) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    /// Clamped inside the unit square, with a minimum size so it always holds a pixel.
    package var clamped: NormalizedRect {
        let left = min(max(0, x), 0.999), top = min(max(0, y), 0.999)
        return NormalizedRect(
            x: left, y: top, width: min(max(0.001, width), 1 - left),
            height: min(max(0.001, height), 1 - top))
    }
}
