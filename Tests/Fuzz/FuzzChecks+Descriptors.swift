import CAvifShim
import CVipsShim
import Glibc
import ThumbsImaging

/// The C readers that take an open file rather than bytes: each input becomes a file, read
/// through its descriptor as the worker reads a photo.
extension FuzzChecks {
    // MARK: PNG colour chunks

    /// `thumbs_png_colour_profile`: the sRGB, gAMA and cHRM chunks of a PNG without an ICC
    /// profile, as the profile they describe. The input's first byte says whether the picture is
    /// grey; the rest is the file, signature included.
    static func pngColour(_ bytes: UnsafeRawBufferPointer) {
        guard let flags = bytes.first else { return }
        withScratchFile(UnsafeRawBufferPointer(rebasing: bytes.dropFirst())) { descriptor in
            var length = 0
            guard let profile = thumbs_png_colour_profile(descriptor, Int32(flags & 1), &length) else { return }
            defer { free(profile) }
            // An ICC profile starts with its 128-byte header, whose first field is its size.
            let size = length >= 4 ? (0..<4).reduce(0) { $0 << 8 | Int(profile[$1]) } : -1
            expect(length >= 128 && size == length, "a profile of \(length) bytes whose header says \(size)")
        }
    }

    // MARK: AVIF through libavif

    /// Frames larger than this are refused before they are decoded, as the worker refuses
    /// those over its configured limit; small enough that the fuzzer stays fast.
    private static let avifPixelLimit: Int64 = 1 << 22

    /// `thumbs_avif_probe` and `thumbs_avif_first_frame`: an animated AVIF (or any AVIF) read by
    /// libavif and decoded by its AV1 decoder.
    static func avifSequence(_ bytes: UnsafeRawBufferPointer) {
        // Opened once; where libavif is not installed there is nothing to fuzz.
        guard (try? DecodingLibrary.libavif.open()) != nil else { return }
        withScratchFile(bytes) { descriptor in
            var info = thumbs_avif_info()
            var message = [CChar](repeating: 0, count: 256)
            if thumbs_avif_probe(descriptor, avifPixelLimit, &info, &message, message.count) == THUMBS_AVIF_OK {
                expect(isAcceptable(info), "a sequence probed as \(info)")
            }
            expect(message.last == 0, "a message not terminated")
            var frame = thumbs_avif_frame()
            let decoded = thumbs_avif_first_frame(descriptor, avifPixelLimit, &info, &frame, &message, message.count)
            defer {
                free(frame.pixels)
                free(frame.icc)
            }
            guard decoded == THUMBS_AVIF_OK else { return }
            expect(isAcceptable(info), "a sequence decoded as \(info)")
            expect(
                frame.pixels != nil && [3, 4].contains(frame.bands) && frame.width == info.width
                    && frame.height == info.height && (frame.icc == nil) == (frame.icc_length == 0),
                "a first frame of \(frame.width)x\(frame.height), \(frame.bands) bands, for \(info)")
        }
    }

    private static func isAcceptable(_ info: thumbs_avif_info) -> Bool {
        info.width > 0 && info.height > 0 && Int64(info.width) * Int64(info.height) <= avifPixelLimit
            && (1...8).contains(info.exif_orientation) && info.frame_count >= 1
    }

    /// Runs `body` with a descriptor of the scratch file holding `bytes`, closed after.
    private static func withScratchFile(_ bytes: UnsafeRawBufferPointer, _ body: (Int32) -> Void) {
        let descriptor = scratchFile(named: "input", holding: bytes)
        defer { close(descriptor) }
        body(descriptor)
    }
}
