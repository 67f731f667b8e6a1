import ThumbsCore

/// The eight EXIF orientations applied to values in memory, small pictures' and planes'
/// (larger 8-bit pictures turn in C, `Orient.c`).
package enum ExifOrientation {
    /// `values` of a picture of `size` (rows packed, `channels` per pixel) stored with EXIF
    /// `orientation` (1...8; anything else is 1), as it is displayed: turned upright, and its
    /// size then.
    package static func upright<Value>(
        _ values: [Value], size: PixelSize, channels: Int, orientation: Int
    ) -> (values: [Value], size: PixelSize) {
        guard (2...8).contains(orientation), let first = values.first else { return (values, size) }
        let (width, height) = (size.width, size.height)
        let turned = orientation >= 5 ? size.transposed : size
        var out = [Value](repeating: first, count: values.count)
        for y in 0..<turned.height {
            for x in 0..<turned.width {
                // The stored pixel each upright one comes from.
                let (sx, sy): (Int, Int) =
                    switch orientation {
                    case 2: (width - 1 - x, y)
                    case 3: (width - 1 - x, height - 1 - y)
                    case 4: (x, height - 1 - y)
                    case 5: (y, x)
                    case 6: (y, height - 1 - x)
                    case 7: (width - 1 - y, height - 1 - x)
                    default: (width - 1 - y, x)
                    }
                let from = (sy * width + sx) * channels, to = (y * turned.width + x) * channels
                for channel in 0..<channels { out[to + channel] = values[from + channel] }
            }
        }
        return (out, turned)
    }
}
