import CVipsShim
import Glibc
import ThumbsCore
import ThumbsRendering

/// PNG: decoded by libpng and resized as libvips' thumbnail resizes it, without libvips, where
/// that gives libvips' pixels (`PNGHandler+Direct.swift`); else libvips' `pngload` (libpng),
/// streamed through libvips' shrink, an interlaced one read whole. A PNG that states its colour
/// with cHRM and gAMA chunks rather than an ICC profile is converted as browsers draw it. It ends
/// with an IEND chunk.
struct PNGHandler: StillImageHandler {
    let name = "PNG"
    let mediaTypes: Set<MediaType> = [.png]
    /// None: libpng is linked at start, and libvips opens only for what the direct path leaves
    /// to the engine (``libraries(for:)``).
    let libraries: Set<DecodingLibrary> = []

    func decoding(with loaded: DecoderLibraries) -> String {
        "libpng, resized as libvips' thumbnail resizes, without libvips; libvips' pngload for 16-bit "
            + "grey and eXIf; its colour chunks read as a profile"
    }

    func decoderMemory(of file: ImageFile, decodeSize: PixelSize) -> Int {
        let whole = file.isInterlaced ? file.storedSize.pixelCount * file.bands * file.sampleBytes : 0
        return whole + file.streamedLineMemory(lines: 1152)
    }

    func lacksEndMarker(_ tail: [UInt8]) -> Bool {
        !String(decoding: tail.suffix(12), as: UTF8.self).contains("IEND")
    }

    /// `image` with the ICC profile the PNG's colour chunks describe (cHRM's primaries and white
    /// point, gAMA's gamma) when it has no profile of its own and no sRGB chunk:
    /// ``VipsRenderer/srgb(_:_:)`` then converts it as it converts an embedded profile. Chunks
    /// that say sRGB leave `image` as it is.
    func describingColour(
        _ image: VipsImageHandle, of file: ImageFile, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        guard !image.has("icc-profile-data") else { return image }
        var length = 0
        // Grey, with or without alpha, takes a grey profile.
        guard let profile = thumbs_png_colour_profile(file.descriptor, image.bands < 3 ? 1 : 0, &length) else {
            return image
        }
        defer { free(profile) }
        return try VipsImageHandle.make(failure) { thumbs_vips_with_profile(image.pointer, $0, profile, length) }
    }
}
