import ThumbsCore

extension RenditionSpec {
    /// Version of ``storageKey``'s layout: the first byte of the rendition part of every key.
    static let storageKeyVersion: UInt8 = 1

    private static let formats: [ThumbnailFormat] = [.jpeg, .webp, .png]
    private static let modes: [ContentMode] = [.aspectFit, .aspectFill]

    /// The spec as stored in a ``ThumbnailKey``: fixed width (version, width, height, mode,
    /// format, quality, upscaling; 13 bytes) and read back by ``init(storageKey:)``, so the store
    /// can tell what a cached rendition is without parsing ``description``, which is for people.
    package var storageKey: [UInt8] {
        var writer = ByteWriter(capacity: 13)
        writer.u8(Self.storageKeyVersion)
        writer.u32(UInt32(size.width))
        writer.u32(UInt32(size.height))
        writer.u8(UInt8(Self.modes.firstIndex(of: contentMode) ?? 0))
        writer.u8(UInt8(Self.formats.firstIndex(of: format) ?? 0))
        writer.u8(UInt8(quality))
        writer.u8(allowsUpscaling ? 1 : 0)
        return writer.bytes
    }

    /// Reads what ``storageKey`` wrote; nil for another layout (a key of an older version, or
    /// damage), which the store then treats as no usable rendition.
    package init?(storageKey bytes: UnsafeRawBufferPointer) {
        var reader = ByteReader(bytes, record: "rendition key")
        guard bytes.count == 13, (try? reader.u8()) == Self.storageKeyVersion,
            let width = try? reader.u32(), let height = try? reader.u32(),
            let mode = try? reader.u8(), Int(mode) < Self.modes.count,
            let format = try? reader.u8(), Int(format) < Self.formats.count,
            let quality = try? reader.u8(), let upscale = try? reader.u8()
        else { return nil }
        self.init(
            size: PixelSize(width: Int(width), height: Int(height)), contentMode: Self.modes[Int(mode)],
            format: Self.formats[Int(format)], quality: Int(quality), allowsUpscaling: upscale == 1)
    }
}
