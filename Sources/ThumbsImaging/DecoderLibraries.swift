import CAvifShim
import CHeifShim
import CRawShim
import CVideoShim
import CVipsShim
import ThumbsCore

/// The C libraries that decode for Thumbs, as opened at run time.
///
/// Camera RAW files always go to LibRaw directly (`CRawShim`): its embedded preview is
/// extracted without decoding the sensor data, and where no preview covers the target, a
/// half-size decode skips demosaicing. libvips 8.18 adds a LibRaw loader of its own
/// (`dcrawload`), but it always demosaics the whole sensor (a half-size option arrives only in
/// 8.19) and exposes no preview, so Thumbs never hands it a RAW file; ``libvipsReadsRaw``
/// only reports whether it is there.
///
/// HEIC pictures are read by libheif through libvips, but their HEVC bitstreams go to FFmpeg's
/// decoder (`CHeifShim`, a libheif decoder plugin): the same pixels as libde265's, in two thirds
/// of the time. AVIF pictures' AV1 bitstreams go to dav1d through FFmpeg the same way, so that
/// dav1d's messages stay off stderr. ``heicDecoder`` and ``avifDecoder`` name the decoders
/// libheif picks.
///
/// AVIF image sequences (animated AVIF), whose frames libheif does not read, go to libavif
/// (``libavif``); JPEG XL stills to libvips' `jxlload`, from its module (``jpegXLLoader``).
///
/// ```swift
/// let libraries = try DecoderLibraries.linked()
/// print(libraries.libvips, libraries.ffmpeg, libraries.libRaw)
/// ```
public struct DecoderLibraries: Sendable, Equatable {
    /// libvips' version, e.g. "8.14.1".
    public var libvips: String
    /// The FFmpeg release of libavformat, libavcodec and libswscale, e.g. "5.1.6-0+deb12u1".
    public var ffmpeg: String
    /// LibRaw's version, e.g. "0.20.2-Release".
    public var libRaw: String
    /// Whether libvips has a LibRaw loader (`dcrawload`, libvips 8.18 and later).
    public var libvipsReadsRaw: Bool
    /// The decoder libheif uses for HEIC pictures, e.g. "FFmpeg HEVC decoder (Thumbs)".
    public var heicDecoder: String
    /// The decoder libheif uses for AVIF pictures, e.g. "FFmpeg AV1 decoder (Thumbs)".
    public var avifDecoder: String
    /// libavif's version, e.g. "0.11.1": it decodes the first frame of AVIF image sequences.
    public var libavif: String
    /// The libvips loader that reads JPEG XL: "jxlload", or "none" when libvips' module for it
    /// cannot be loaded.
    public var jpegXLLoader: String

    /// What this process decodes with, opening each library that is not open yet
    /// (libvips, FFmpeg, libheif, LibRaw, libavif, and libvips' JPEG XL module). A library that
    /// cannot be opened is reported by why, in place of its version; only libvips, without which
    /// nothing renders, throws.
    public static func linked() throws(ImagingError) -> DecoderLibraries {
        try VipsRuntime.ensureStarted()
        let heif = Result { () throws(ImagingError) in try HeifRuntime.ensureStarted() }
        return DecoderLibraries(
            libvips: String(cString: vips_version_string()),
            ffmpeg: version(of: .ffmpeg) { String(cString: thumbs_video_library_version()) },
            libRaw: version(of: .libRaw) { String(cString: thumbs_raw_library_version()) },
            libvipsReadsRaw: thumbs_vips_has_loader("dcrawload") != 0,
            heicDecoder: heif.describe { String(cString: thumbs_heif_hevc_decoder_name()) },
            avifDecoder: heif.describe { String(cString: thumbs_heif_av1_decoder_name()) },
            libavif: version(of: .libavif) { String(cString: thumbs_avif_library_version()) },
            jpegXLLoader: (try? DecodingLibrary.libjxl.open()) != nil ? "jxlload" : "none")
    }

    private static func version(of library: DecodingLibrary, _ read: () -> String) -> String {
        Result { () throws(ImagingError) in try library.open() }.describe(read)
    }
}

extension Result<Void, ImagingError> {
    /// What `read` says once the library is open, else why it could not be opened.
    fileprivate func describe(_ read: () -> String) -> String {
        switch self {
        case .success: read()
        case .failure(let error): "unavailable (\(error))"
        }
    }
}
