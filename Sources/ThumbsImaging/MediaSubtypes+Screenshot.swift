import ThumbsCore

extension MediaSubtypes {
    /// Whether a still is a screenshot: iOS writes EXIF UserComment "Screenshot"; a picture
    /// with no camera's Make is one when Android names it so (`Screenshot_…`), when it lies in a
    /// `Screenshots` folder (Android's and macOS's habit), or when it is a PNG of a screen's size
    /// (``screenSizes``, either way up).
    static func isScreenshot(
        userComment: String?, cameraMake: String?, mediaType: MediaType, pixelSize: PixelSize, path: String
    ) -> Bool {
        if userComment == "Screenshot" { return true }
        guard cameraMake == nil else { return false }
        let components = path.split(separator: "/")
        if let name = components.last, name.lowercased().hasPrefix("screenshot") { return true }
        if components.dropLast().contains(where: { $0.lowercased() == "screenshots" }) { return true }
        guard mediaType == .png else { return false }
        let side = (min(pixelSize.width, pixelSize.height), max(pixelSize.width, pixelSize.height))
        return screenSizes.contains { $0 == side }
    }

    /// Screens' sizes in pixels (shorter side first): iPhones and iPads by Apple's published
    /// resolutions, common Android phones, and desktop displays; none a camera's usual size.
    static let screenSizes: [(Int, Int)] = [
        // iPhone: 4, 5/SE, 6-8 and SE 2-3, 6-8 Plus, X/XS/11 Pro, XR/11, XS Max/11 Pro Max,
        // 12/13/14, 12-14 Pro Max/14 Plus, 14 Pro/15/16, 14 Pro Max/15-16 Plus/15 Pro Max,
        // 16 Pro, 16 Pro Max, 12/13 mini.
        (640, 960), (640, 1136), (750, 1334), (1242, 2208), (1125, 2436), (828, 1792), (1242, 2688),
        (1170, 2532), (1284, 2778), (1179, 2556), (1290, 2796), (1206, 2622), (1320, 2868), (1080, 2340),
        // iPad: 10.2", 10.5", 11", 10.9", 12.9", 11" M4, 13" M4, mini 6 (not the 9.7" one's
        // 1536 × 2048: a 4:3 camera's 3-megapixel size too).
        (1620, 2160), (1668, 2224), (1668, 2388), (1640, 2360), (2048, 2732), (1668, 2420),
        (2064, 2752), (1488, 2266),
        // Android phones: HD, HD+, FHD, FHD+ (18:9, 19:9, 19.5:9, 20:9), QHD, QHD+.
        (720, 1280), (720, 1520), (720, 1600), (1080, 1920), (1080, 2160), (1080, 2280), (1080, 2400),
        (1440, 2560), (1440, 2960), (1440, 3040), (1440, 3088), (1440, 3120), (1440, 3200),
        // Desktops and laptops (FHD and QHD are listed with phones): WXGA, HD, WXGA+, 1536×864,
        // HD+, WSXGA+, WUXGA, WQXGA, ultrawide FHD and QHD, MacBook Air 13" and Pro 15", 14",
        // 16", Air 15", 4K UHD, 5K.
        (800, 1280), (768, 1366), (900, 1440), (864, 1536), (900, 1600), (1050, 1680), (1200, 1920),
        (1600, 2560), (1080, 2560), (1440, 3440), (1664, 2560), (1800, 2880), (1964, 3024),
        (2234, 3456), (1912, 2940), (2160, 3840), (2880, 5120),
    ]
}
