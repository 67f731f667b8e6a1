import ThumbsCore

/// Values over a whole picture, one or three per pixel, as floats: a picture's light, or a gain
/// map. Small (a gain map's area is a quarter of a thumbnail's), so resized here in Swift.
package struct GainPlane: Sendable {
    package let size: PixelSize
    /// 1, or 3 (red, green and blue).
    package let channels: Int
    /// `size.pixelCount × channels` values, rows packed, channels interleaved.
    package let values: [Float]

    package init?(size: PixelSize, channels: Int, values: [Float]) {
        guard size.width > 0, size.height > 0, [1, 3].contains(channels),
            values.count == size.pixelCount * channels
        else { return nil }
        self.size = size
        self.channels = channels
        self.values = values
    }

    /// The plane turned upright from `orientation` (EXIF, 1...8), as a picture stored so is.
    package func upright(orientation: Int) -> GainPlane {
        let turned = ExifOrientation.upright(values, size: size, channels: channels, orientation: orientation)
        return GainPlane(size: turned.size, channels: channels, values: turned.values)!
    }

    /// The plane resized to `output`: the whole of it, or with `fill` its centred part of
    /// `output`'s shape, as a filled rendition crops the picture. Each value is the mean over
    /// its area where the plane shrinks, interpolated where it grows.
    package func resampled(to output: PixelSize, fill: Bool) -> GainPlane {
        var region = (x: 0.0, y: 0.0, width: Double(size.width), height: Double(size.height))
        if fill {
            let aspect = Double(output.width) / Double(output.height)
            if region.width / region.height > aspect {
                let width = region.height * aspect
                region = ((region.width - width) / 2, 0, width, region.height)
            } else {
                let height = region.width / aspect
                region = (0, (region.height - height) / 2, region.width, height)
            }
        }
        let across = Self.weights(from: region.x, length: region.width, count: output.width, limit: size.width)
        let down = Self.weights(from: region.y, length: region.height, count: output.height, limit: size.height)
        // Across first, into rows of the output's width, then down.
        var rows = [Float](repeating: 0, count: size.height * output.width * channels)
        for y in 0..<size.height {
            for (x, taps) in across.enumerated() {
                for channel in 0..<channels {
                    var sum: Float = 0
                    for tap in taps { sum += tap.weight * values[(y * size.width + tap.index) * channels + channel] }
                    rows[(y * output.width + x) * channels + channel] = sum
                }
            }
        }
        var out = [Float](repeating: 0, count: output.pixelCount * channels)
        for (y, taps) in down.enumerated() {
            for x in 0..<output.width {
                for channel in 0..<channels {
                    var sum: Float = 0
                    for tap in taps { sum += tap.weight * rows[(tap.index * output.width + x) * channels + channel] }
                    out[(y * output.width + x) * channels + channel] = sum
                }
            }
        }
        return GainPlane(size: output, channels: channels, values: out)!
    }

    /// For each of `count` outputs covering `length` samples from `start`, the samples it takes
    /// and their weights (summing to 1): the samples its interval covers, by how much, when an
    /// output spans a sample or more; else the two nearest its centre, linearly.
    private static func weights(from start: Double, length: Double, count: Int, limit: Int)
        -> [[(index: Int, weight: Float)]]
    {
        let step = length / Double(count)
        return (0..<count).map { output in
            var taps: [(index: Int, weight: Float)] = []
            if step >= 1 {
                let low = start + Double(output) * step, high = low + step
                var sample = Int(low.rounded(.down))
                while Double(sample) < high, sample < limit {
                    let covered = min(high, Double(sample + 1)) - max(low, Double(sample))
                    if covered > 0 { taps.append((max(0, sample), Float(covered / step))) }
                    sample += 1
                }
            } else {
                let centre = start + (Double(output) + 0.5) * step - 0.5
                let below = Int(centre.rounded(.down)), fraction = Float(centre - Double(below))
                taps = [(min(max(below, 0), limit - 1), 1 - fraction), (min(max(below + 1, 0), limit - 1), fraction)]
            }
            let total = taps.reduce(0) { $0 + $1.weight }
            return total > 0 ? taps.map { ($0.index, $0.weight / total) } : [(min(max(0, Int(start)), limit - 1), 1)]
        }
    }
}
