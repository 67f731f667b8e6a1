import Thumbs
import ThumbsSamples

/// The contents of the sample library: what a small real one holds, good and bad.
enum SampleLibrary {
    struct Sample {
        let path: String
        let image: SyntheticImage
        let container: SyntheticImage.Container
        let orientation: Int
        var truncated = false

        func bytes() throws -> [UInt8] {
            let full = try image.encoded(as: container, orientation: orientation)
            return truncated ? Array(full.prefix(full.count / 2)) : full
        }
    }

    static let samples: [Sample] = {
        var samples: [Sample] = []
        for orientation in 1...8 {
            samples.append(
                Sample(
                    path: "camera/IMG_000\(orientation).jpg",
                    image: SyntheticImage(width: 3000, height: 2000),
                    container: .jpeg, orientation: orientation))
        }
        samples += [
            Sample(
                path: "phone/panorama.jpg", image: SyntheticImage(width: 6000, height: 1500),
                container: .jpeg, orientation: 1),
            Sample(
                path: "exports/transparent.png", image: SyntheticImage(width: 800, height: 800, pixels: .rgba),
                container: .png, orientation: 1),
            Sample(
                path: "exports/deep.png", image: SyntheticImage(width: 640, height: 480, pixels: .rgb16),
                container: .png, orientation: 1),
            Sample(
                path: "exports/web.webp", image: SyntheticImage(width: 1200, height: 900),
                container: .webp, orientation: 1),
            Sample(
                path: "scans/print.tif", image: SyntheticImage(width: 1200, height: 1600, pixels: .cmyk),
                container: .tiff, orientation: 1),
            Sample(
                path: "scans/grey.png", image: SyntheticImage(width: 900, height: 1200, pixels: .grey),
                container: .png, orientation: 1),
            Sample(
                path: "broken/half-copied.jpg", image: SyntheticImage(width: 2000, height: 1500),
                container: .jpeg, orientation: 1, truncated: true),
        ]
        return samples
    }()
}
