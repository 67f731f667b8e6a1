import Foundation

/// A ThumbHash: Evan Wallace's placeholder format (<https://evanw.github.io/thumbhash/>), about
/// 25 bytes holding a photo's aspect ratio, average colour and a few cosine terms of its
/// luminance, colour and alpha, from which a blurred picture can be drawn before the thumbnail
/// arrives.
///
/// The encoder gives the reference encoder's bytes for the same pixels: its arithmetic, its
/// rounding (halves up) and its layout.
/// ```swift
/// let hash = ThumbHash(rgba: pixels, width: 100, height: 75)
/// json["placeholder"] = hash.base64
/// ```
public struct ThumbHash: Sendable, Hashable, CustomStringConvertible {
    /// The encoded hash: the format's 5 header bytes (6 with alpha), then its cosine terms, two
    /// per byte.
    public let bytes: [UInt8]

    /// The largest width or height an encoded image may have. A placeholder holds no more than
    /// 7×7 cosine terms, so a larger input would cost time and change nothing.
    public static let maximumSide = 100

    /// Encodes `width` × `height` pixels, row by row, 4 bytes each (red, green, blue and alpha,
    /// not premultiplied). Both sides must be 1...``maximumSide`` and `rgba` must hold exactly
    /// their pixels: anything else is a programming error, and traps.
    public init(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
        precondition(
            (1...Self.maximumSide).contains(width) && (1...Self.maximumSide).contains(height),
            "a ThumbHash is made from at most \(Self.maximumSide)x\(Self.maximumSide) pixels, not \(width)x\(height)")
        precondition(rgba.count == width * height * 4, "\(rgba.count) bytes are not \(width)x\(height) RGBA pixels")
        bytes = Encoder(rgba: rgba, width: width, height: height).encoded()
    }

    /// As ``init(rgba:width:height:)-(UnsafeBufferPointer<UInt8>,_,_)``, from an array.
    public init(rgba: [UInt8], width: Int, height: Int) {
        self = rgba.withUnsafeBufferPointer { ThumbHash(rgba: $0, width: width, height: height) }
    }

    /// A hash read back from its bytes (kept in a store, sent over the network); nil unless they
    /// are a whole hash as the encoder writes one: a header whose sizes are in range, and exactly
    /// as many cosine terms as it announces.
    public init?(bytes: [UInt8]) {
        guard let layout = Layout(bytes), bytes.count == layout.byteCount else { return nil }
        // An odd number of terms leaves the last byte's high half unused: the encoder writes 0.
        if layout.termCount % 2 == 1, bytes[bytes.count - 1] >> 4 != 0 { return nil }
        self.bytes = bytes
    }

    /// A hash read back from ``base64``; nil when the text is not base64 or not a hash.
    public init?(base64: String) {
        guard let data = Data(base64Encoded: base64) else { return nil }
        self.init(bytes: Array(data))
    }

    /// The bytes in standard base64 (with padding), as web pages decode it with `atob`.
    public var base64: String { Data(bytes).base64EncodedString() }

    public var description: String { base64 }

    /// Whether the image had any pixel that was not fully opaque.
    public var hasAlpha: Bool { bytes[2] & 0x80 != 0 }

    /// JavaScript's `Math.round`, which the reference encoder uses: to the nearest integer,
    /// halves toward positive infinity (Swift's `rounded()` takes -2.5 to -3, and
    /// `Foundation.round` likewise).
    static func roundHalfUp(_ value: Double) -> Int {
        let nearest = value.rounded(.toNearestOrAwayFromZero)
        return Int(value < 0 && nearest - value == -0.5 ? nearest + 1 : nearest)
    }
}

extension ThumbHash {
    /// What a header says of the rest of the hash: how many luminance terms across and down
    /// (lx, ly, each at least 3), and so how many bytes follow.
    struct Layout {
        let hasAlpha: Bool
        let isLandscape: Bool
        /// The luminance terms along the shorter side, as stored (1...7; 1...5 with alpha).
        let shorterCount: Int
        let lx: Int
        let ly: Int

        init?(_ bytes: [UInt8]) {
            guard bytes.count >= 5 else { return nil }
            hasAlpha = bytes[2] & 0x80 != 0
            isLandscape = bytes[4] & 0x80 != 0
            shorterCount = Int(bytes[3] & 7)
            let longer = hasAlpha ? 5 : 7
            guard (1...longer).contains(shorterCount) else { return nil }
            lx = max(3, isLandscape ? longer : shorterCount)
            ly = max(3, isLandscape ? shorterCount : longer)
        }

        /// The aspect ratio the hash was made for, as the reference reads it: the luminance
        /// term counts across over down, before the minimum of 3.
        var aspectRatio: Double {
            let longer = Double(hasAlpha ? 5 : 7), shorter = Double(shorterCount)
            return isLandscape ? longer / shorter : shorter / longer
        }

        var headerCount: Int { hasAlpha ? 6 : 5 }

        /// Cosine terms, 4 bits each: luminance, then P and Q (5 each), then alpha (14).
        var termCount: Int {
            Self.acCount(lx, ly) + 2 * Self.acCount(3, 3) + (hasAlpha ? Self.acCount(5, 5) : 0)
        }

        var byteCount: Int { headerCount + (termCount + 1) / 2 }

        /// The terms of an nx × ny channel the format keeps: a triangle of the low frequencies,
        /// without the constant one.
        static func acCount(_ nx: Int, _ ny: Int) -> Int {
            var count = 0
            for cy in 0..<ny {
                var cx = cy == 0 ? 1 : 0
                while cx * ny < nx * (ny - cy) {
                    count += 1
                    cx += 1
                }
            }
            return count
        }
    }

    /// The reference encoder, step for step: the same operations in the same order on doubles,
    /// so that every rounding lands where the reference's does.
    private struct Encoder {
        let width: Int
        let height: Int
        /// Luminance, yellow-blue, red-green and alpha per pixel, composited over the average
        /// colour.
        var l: [Double] = [], p: [Double] = [], q: [Double] = [], a: [Double] = []
        let hasAlpha: Bool

        init(rgba: UnsafeBufferPointer<UInt8>, width: Int, height: Int) {
            self.width = width
            self.height = height
            let count = width * height
            var averageR = 0.0, averageG = 0.0, averageB = 0.0, averageA = 0.0
            for j in stride(from: 0, to: count * 4, by: 4) {
                let alpha = Double(rgba[j + 3]) / 255
                averageR += alpha / 255 * Double(rgba[j])
                averageG += alpha / 255 * Double(rgba[j + 1])
                averageB += alpha / 255 * Double(rgba[j + 2])
                averageA += alpha
            }
            if averageA > 0 {
                averageR /= averageA
                averageG /= averageA
                averageB /= averageA
            }
            hasAlpha = averageA < Double(count)
            l.reserveCapacity(count)
            p.reserveCapacity(count)
            q.reserveCapacity(count)
            a.reserveCapacity(count)
            for j in stride(from: 0, to: count * 4, by: 4) {
                let alpha = Double(rgba[j + 3]) / 255
                let r = averageR * (1 - alpha) + alpha / 255 * Double(rgba[j])
                let g = averageG * (1 - alpha) + alpha / 255 * Double(rgba[j + 1])
                let b = averageB * (1 - alpha) + alpha / 255 * Double(rgba[j + 2])
                l.append((r + g + b) / 3)
                p.append((r + g) / 2 - b)
                q.append(r - g)
                a.append(alpha)
            }
        }

        /// The constant term, the others scaled into 0...1, and their scale.
        private func channel(_ values: [Double], _ nx: Int, _ ny: Int) -> (dc: Double, ac: [Double], scale: Double) {
            var dc = 0.0, ac: [Double] = [], scale = 0.0
            var fx = [Double](repeating: 0, count: width)
            values.withUnsafeBufferPointer { values in
                for cy in 0..<ny {
                    var cx = 0
                    while cx * ny < nx * (ny - cy) {
                        for x in 0..<width { fx[x] = cos(Double.pi / Double(width) * Double(cx) * (Double(x) + 0.5)) }
                        var f = 0.0
                        for y in 0..<height {
                            let fy = cos(Double.pi / Double(height) * Double(cy) * (Double(y) + 0.5))
                            for x in 0..<width { f += values[x + y * width] * fx[x] * fy }
                        }
                        f /= Double(width * height)
                        if cx > 0 || cy > 0 {
                            ac.append(f)
                            scale = max(scale, abs(f))
                        } else {
                            dc = f
                        }
                        cx += 1
                    }
                }
            }
            if scale > 0 { ac = ac.map { 0.5 + 0.5 / scale * $0 } }
            return (dc, ac, scale)
        }

        func encoded() -> [UInt8] {
            let round = ThumbHash.roundHalfUp
            let limit = hasAlpha ? 5 : 7
            let longest = max(width, height)
            let lx = max(1, round(Double(limit * width) / Double(longest)))
            let ly = max(1, round(Double(limit * height) / Double(longest)))
            let luminance = channel(l, max(3, lx), max(3, ly))
            let yellowBlue = channel(p, 3, 3)
            let redGreen = channel(q, 3, 3)
            let alpha = hasAlpha ? channel(a, 5, 5) : (dc: 1, ac: [], scale: 1)

            let isLandscape = width > height
            let header24 =
                round(63 * luminance.dc) | (round(31.5 + 31.5 * yellowBlue.dc) << 6)
                | (round(31.5 + 31.5 * redGreen.dc) << 12) | (round(31 * luminance.scale) << 18)
                | (hasAlpha ? 1 << 23 : 0)
            let header16 =
                (isLandscape ? ly : lx) | (round(63 * yellowBlue.scale) << 3) | (round(63 * redGreen.scale) << 9)
                | (isLandscape ? 1 << 15 : 0)
            var hash = [header24, header24 >> 8, header24 >> 16, header16, header16 >> 8].map {
                UInt8(truncatingIfNeeded: $0)
            }
            if hasAlpha {
                hash.append(UInt8(truncatingIfNeeded: round(15 * alpha.dc) | (round(15 * alpha.scale) << 4)))
            }
            let start = hash.count
            let terms = luminance.ac + yellowBlue.ac + redGreen.ac + alpha.ac
            hash += [UInt8](repeating: 0, count: (terms.count + 1) / 2)
            for (index, term) in terms.enumerated() {
                hash[start + (index >> 1)] |= UInt8(truncatingIfNeeded: round(15 * term) << ((index & 1) << 2))
            }
            return hash
        }
    }
}
