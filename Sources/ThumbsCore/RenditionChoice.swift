import Foundation

/// Which rendition can stand in for another: the memory tier and the store both pick their
/// stand-ins by these rules, so a degraded or a "fast" final image is the same whichever tier
/// has it.
package enum RenditionChoice {
    /// Whether a thumbnail made for `candidate` may be served as the final image of a request for
    /// `wanted` (resize mode fast): only a whole picture (fit) in the same format. A fill
    /// rendition is cropped to another shape and cannot stand for the final image. A rendition
    /// asked with a gain map takes no stand-in: resizing one would keep its SDR picture alone.
    package static func canServeAsFinal(_ candidate: RenditionSpec, for wanted: RenditionSpec) -> Bool {
        candidate.contentMode == .aspectFit && candidate.format == wanted.format && !wanted.carriesGainMap
    }

    /// The candidate whose size is closest to `target` (by area ratio); with `atLeast`, only
    /// candidates reaching the box in one dimension count (renditions of one image share its
    /// aspect ratio, so that one is enough to fit the box from it).
    package static func closest<C>(
        _ candidates: [C], to target: PixelSize, atLeast: Bool, size: (C) -> PixelSize
    ) -> C? {
        func fits(_ candidate: C) -> Bool {
            let size = size(candidate)
            return size.width >= target.width || size.height >= target.height
        }
        // Areas in floating point: a size read from a damaged store record may have sides near
        // 2^32, whose product overflows an Int.
        func area(_ size: PixelSize) -> Double { max(1, Double(size.width) * Double(size.height)) }
        func distance(_ candidate: C) -> Double {
            abs(log(area(size(candidate)) / area(target)))
        }
        return candidates.filter { !atLeast || fits($0) }.min { distance($0) < distance($1) }
    }
}
