import ThumbsCore
import ThumbsSupport

/// The arithmetic of fitting a source into a rendition's box, kept apart from libvips so it can
/// be reasoned about and tested alone. All sizes are upright (orientation already applied).
enum RenditionGeometry {
    /// The exact pixel size a rendition of `source` has for `spec`.
    ///
    /// Fit scales the whole image inside the box; fill covers the box and is cropped to it. Without
    /// upscaling, a source smaller than the box keeps its own resolution: fit returns it whole,
    /// fill returns the largest centre crop with the box's aspect ratio.
    static func outputSize(source: PixelSize, spec: RenditionSpec) -> PixelSize {
        let box = spec.size
        let sw = Double(source.width), sh = Double(source.height)
        switch spec.contentMode {
        case .aspectFit:
            var scale = min(Double(box.width) / sw, Double(box.height) / sh)
            if !spec.allowsUpscaling { scale = min(scale, 1) }
            return PixelSize(width: clamp(sw * scale), height: clamp(sh * scale))
        case .aspectFill:
            let scale = max(Double(box.width) / sw, Double(box.height) / sh)
            if scale <= 1 || spec.allowsUpscaling { return box }
            let boxAspect = Double(box.width) / Double(box.height)
            return sw / sh > boxAspect
                ? PixelSize(width: clamp(sh * boxAspect), height: source.height)
                : PixelSize(width: source.width, height: clamp(sw / boxAspect))
        }
    }

    /// The scale from `source` a rendition needs before any crop (fill covers its output).
    static func scale(source: PixelSize, output: PixelSize, contentMode: ContentMode) -> Double {
        let x = Double(output.width) / Double(source.width)
        let y = Double(output.height) / Double(source.height)
        return contentMode == .aspectFill ? max(x, y) : min(x, y)
    }

    /// The size of one decode from which every spec can be derived: the largest scale any of
    /// them needs (twice it when another is less than twice smaller, ``sharedScale(_:)``),
    /// applied to the whole source (never cropped, so any fit or fill can follow), its sides
    /// rounded, and each at least that of every rendition's whole picture (a fit's size, a
    /// fill's cover), which rounding can leave a pixel short. The largest rendition is then the
    /// decode as it is, or its centre crop, never resampled again by a hair nor shifted off the
    /// centre, or a resize of at least a factor of two, as every other rendition is.
    static func sharedDecodeSize(source: PixelSize, specs: [RenditionSpec]) -> PixelSize {
        let shared = sharedScale(
            specs.map { spec in
                scale(
                    source: source, output: outputSize(source: source, spec: spec),
                    contentMode: spec.contentMode)
            })
        return specs.reduce(
            PixelSize(width: clamp(Double(source.width) * shared), height: clamp(Double(source.height) * shared))
        ) { decode, spec in
            let output = outputSize(source: source, spec: spec)
            let whole = spec.contentMode == .aspectFill ? cover(source: source, box: output) : output
            return PixelSize(width: max(decode.width, whole.width), height: max(decode.height, whole.height))
        }
    }

    /// The scale of the decode renditions of `scales` share: the largest, unless a smaller one is
    /// within a factor of two of it. That one would be resized from the largest's picture by a
    /// short step, a second resampling that blurs (`scripts/bench-sharpness`: a 256 fit made
    /// beside a 256 fill kept 0.85× the fine detail of a Lanczos resize of the photo, 0.93× made
    /// alone). The decode is then twice the largest, never past the source's own size nor shrunk
    /// to reach it, and each rendition a resize of at least a factor of two from it or from a
    /// larger rendition (``VipsRenderer/renditions(from:upright:specs:outputs:_:)``).
    static func sharedScale(_ scales: [Double]) -> Double {
        let largest = scales.max() ?? 1
        guard scales.contains(where: { $0 < largest && !isTwice(largest, or: $0) }) else { return largest }
        return max(largest, min(2 * largest, 1))
    }

    /// Whether a picture at scale `larger` is at least twice one at `smaller`, give or take the
    /// one percent that rounding the sides to whole pixels makes (a 1024 × 768 preview and a
    /// 512 × 384 thumbnail are, and so are a 245-px one and a 123-px one).
    static func isTwice(_ larger: Double, or smaller: Double) -> Bool {
        larger >= 2 * smaller * 0.99
    }

    /// The size that covers `box` at `source`'s aspect ratio, as libvips' centre crop rounds it
    /// (``VipsRenderer/cover(_:box:)``).
    static func cover(source: PixelSize, box: PixelSize) -> PixelSize {
        let shrink = min(
            Double(source.width) / Double(box.width), Double(source.height) / Double(box.height))
        return PixelSize(width: clamp(Double(source.width) / shrink), height: clamp(Double(source.height) / shrink))
    }

    /// A side in whole pixels: at least 1, and at most what libvips takes. Sizes reach here
    /// checked (``PixelSize/decoded(width:height:pixelLimit:)``), so this only keeps the
    /// arithmetic total: a NaN or an infinity is never converted.
    private static func clamp(_ value: Double) -> Int {
        guard value.isFinite else { return 1 }
        return Int(min(max(value.rounded(), 1), Double(Int32.max)))
    }
}
