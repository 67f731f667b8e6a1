import ThumbsCore

extension RenditionSpec {
    /// Version of ``storageKey``'s layout: the first byte of the rendition part of every key.
    /// A rendition shown SDR keeps the first layout, so that what a cache holds stays found;
    /// one with a gain map has the second, one byte longer.
    static let storageKeyVersion: UInt8 = 1
    static let hdrStorageKeyVersion: UInt8 = 2

    private static let hdrModes: [HDRRendering] = [.sdr, .gainMap]

    private static let formats: [ThumbnailFormat] = [.jpeg, .webp, .png]
    private static let modes: [ContentMode] = [.aspectFit, .aspectFill]

    /// The spec as stored in a ``ThumbnailKey``: fixed width (version, width, height, mode,
    /// format, quality, upscaling; 13 bytes; then, in the second version, how HDR is shown: 14)
    /// and read back by ``init(storageKey:)``, so the store can tell what a cached rendition is
    /// without parsing ``description``, which is for people.
    package var storageKey: [UInt8] {
        var writer = ByteWriter(capacity: 14)
        writer.u8(hdr == .sdr ? Self.storageKeyVersion : Self.hdrStorageKeyVersion)
        writer.u32(UInt32(size.width))
        writer.u32(UInt32(size.height))
        writer.u8(UInt8(Self.modes.firstIndex(of: contentMode) ?? 0))
        writer.u8(UInt8(Self.formats.firstIndex(of: format) ?? 0))
        writer.u8(UInt8(quality))
        writer.u8(allowsUpscaling ? 1 : 0)
        if hdr != .sdr { writer.u8(UInt8(Self.hdrModes.firstIndex(of: hdr) ?? 0)) }
        return writer.bytes
    }

    /// Reads what ``storageKey`` wrote; nil for another layout (a key of an older version, or
    /// damage), which the store then treats as no usable rendition.
    package init?(storageKey bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes, record: "rendition key")
        guard let version = try? reader.u8(),
            (version == Self.storageKeyVersion && bytes.count == 13)
                || (version == Self.hdrStorageKeyVersion && bytes.count == 14),
            let width = try? reader.u32(), let height = try? reader.u32(),
            let mode = try? reader.u8(), Int(mode) < Self.modes.count,
            let format = try? reader.u8(), Int(format) < Self.formats.count,
            let quality = try? reader.u8(), let upscale = try? reader.u8()
        else { return nil }
        var hdr = HDRRendering.sdr
        if version == Self.hdrStorageKeyVersion {
            guard let mode = try? reader.u8(), Int(mode) < Self.hdrModes.count, Self.hdrModes[Int(mode)] != .sdr
            else { return nil }
            hdr = Self.hdrModes[Int(mode)]
        }
        self.init(
            size: PixelSize(width: Int(width), height: Int(height)), contentMode: Self.modes[Int(mode)],
            format: Self.formats[Int(format)], quality: Int(quality), allowsUpscaling: upscale == 1, hdr: hdr)
    }
}
