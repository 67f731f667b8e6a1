import CVipsShim
import Glibc
import ThumbsCore

/// The colour of a PNG that says it with chunks rather than an ICC profile.
extension VipsRenderer {
    /// `image`, decoded from `file`, with the ICC profile the PNG's colour chunks describe
    /// (cHRM's primaries and white point, gAMA's gamma) when it is a PNG without a profile of its
    /// own and no sRGB chunk: ``srgb(_:_:)`` then converts it as it converts an embedded profile,
    /// as browsers draw such files. Anything else, and chunks that say sRGB, leave `image` as it
    /// is.
    static func describingPngColour(
        _ image: VipsImageHandle, of file: ImageFile, _ failure: (String) -> ImagingError
    ) throws(ImagingError) -> VipsImageHandle {
        guard file.mediaType == .png, !image.has("icc-profile-data") else { return image }
        var length = 0
        // Grey, with or without alpha, takes a grey profile.
        guard let profile = thumbs_png_colour_profile(file.descriptor, image.bands < 3 ? 1 : 0, &length) else {
            return image
        }
        defer { free(profile) }
        return try VipsImageHandle.make(failure) { thumbs_vips_with_profile(image.pointer, $0, profile, length) }
    }
}
