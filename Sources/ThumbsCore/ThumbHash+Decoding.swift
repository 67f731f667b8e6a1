import Foundation

/// Reading a hash back: what a client does to draw the placeholder, here so that the library's
/// own tests (and a program without a browser) can look at one.
extension ThumbHash {
    /// The average colour, each component 0...1 (not premultiplied); alpha is 1 for an opaque
    /// image.
    public var averageColor: (red: Double, green: Double, blue: Double, alpha: Double) {
        let header = Constants(bytes)
        let (red, green, blue) = header.rgb(l: header.lDC, p: header.pDC, q: header.qDC)
        return (red, green, blue, header.aDC)
    }

    /// Width over height of the image the hash was made from, as closely as the hash keeps it
    /// (the luminance term counts: 7 / 5 for a 4:3 landscape photo).
    public var approximateAspectRatio: Double {
        Layout(bytes).map(\.aspectRatio) ?? 1
    }

    /// Draws the placeholder: at most 32 pixels on its longer side, in the hash's aspect ratio,
    /// 4 bytes per pixel (red, green, blue, alpha; not premultiplied), row by row.
    public func rgba() -> (width: Int, height: Int, pixels: [UInt8]) {
        guard let layout = Layout(bytes) else { return (0, 0, []) }
        let header = Constants(bytes)
        let ratio = layout.aspectRatio
        let width = ThumbHash.roundHalfUp(ratio > 1 ? 32 : 32 * ratio)
        let height = ThumbHash.roundHalfUp(ratio > 1 ? 32 / ratio : 32)

        // The terms, in the encoder's order; saturation boosted by 1.25 for what quantisation lost.
        var index = 0
        func terms(_ nx: Int, _ ny: Int, scale: Double) -> [Double] {
            (0..<Layout.acCount(nx, ny)).map { _ in
                let byte = bytes[layout.headerCount + (index >> 1)] >> ((index & 1) << 2)
                index += 1
                return (Double(byte & 15) / 7.5 - 1) * scale
            }
        }
        let lx = layout.lx, ly = layout.ly
        let lAC = terms(lx, ly, scale: header.lScale)
        let pAC = terms(3, 3, scale: header.pScale * 1.25)
        let qAC = terms(3, 3, scale: header.qScale * 1.25)
        let aAC = layout.hasAlpha ? terms(5, 5, scale: header.aScale) : []

        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        var fx = [Double](repeating: 0, count: max(lx, 5)), fy = [Double](repeating: 0, count: max(ly, 5))
        for y in 0..<height {
            for cy in fy.indices { fy[cy] = cos(Double.pi / Double(height) * (Double(y) + 0.5) * Double(cy)) }
            for x in 0..<width {
                for cx in fx.indices { fx[cx] = cos(Double.pi / Double(width) * (Double(x) + 0.5) * Double(cx)) }
                let l = header.lDC + Self.sum(lAC, nx: lx, ny: ly, fx, fy)
                let p = header.pDC + Self.sum(pAC, nx: 3, ny: 3, fx, fy)
                let q = header.qDC + Self.sum(qAC, nx: 3, ny: 3, fx, fy)
                let a = header.aDC + (layout.hasAlpha ? Self.sum(aAC, nx: 5, ny: 5, fx, fy) : 0)
                let (red, green, blue) = header.rgb(l: l, p: p, q: q)
                let offset = (y * width + x) * 4
                pixels[offset] = Self.byte(red)
                pixels[offset + 1] = Self.byte(green)
                pixels[offset + 2] = Self.byte(blue)
                pixels[offset + 3] = Self.byte(a)
            }
        }
        return (width, height, pixels)
    }

    /// One channel's value at a pixel whose cosines are `fx` and `fy`.
    private static func sum(_ ac: [Double], nx: Int, ny: Int, _ fx: [Double], _ fy: [Double]) -> Double {
        var total = 0.0, j = 0
        for cy in 0..<ny {
            var cx = cy == 0 ? 1 : 0
            while cx * ny < nx * (ny - cy) {
                total += ac[j] * fx[cx] * fy[cy] * 2
                j += 1
                cx += 1
            }
        }
        return total
    }

    private static func byte(_ value: Double) -> UInt8 {
        UInt8(255 * min(1, max(0, value)))
    }

    /// The header's constants, as numbers.
    private struct Constants {
        let lDC: Double, pDC: Double, qDC: Double, aDC: Double
        let lScale: Double, pScale: Double, qScale: Double, aScale: Double

        init(_ bytes: [UInt8]) {
            let header24 = Int(bytes[0]) | Int(bytes[1]) << 8 | Int(bytes[2]) << 16
            let header16 = Int(bytes[3]) | Int(bytes[4]) << 8
            let hasAlpha = header24 >> 23 != 0
            lDC = Double(header24 & 63) / 63
            pDC = Double((header24 >> 6) & 63) / 31.5 - 1
            qDC = Double((header24 >> 12) & 63) / 31.5 - 1
            lScale = Double((header24 >> 18) & 31) / 31
            pScale = Double((header16 >> 3) & 63) / 63
            qScale = Double((header16 >> 9) & 63) / 63
            aDC = hasAlpha ? Double(bytes[5] & 15) / 15 : 1
            aScale = hasAlpha ? Double(bytes[5] >> 4) / 15 : 1
        }

        /// Red, green and blue (0...1) of a luminance and two colour differences.
        func rgb(l: Double, p: Double, q: Double) -> (Double, Double, Double) {
            let b = l - 2.0 / 3.0 * p
            let r = (3 * l - b + q) / 2
            let g = r - q
            return (min(1, max(0, r)), min(1, max(0, g)), min(1, max(0, b)))
        }
    }
}
