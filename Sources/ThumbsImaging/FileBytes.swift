import Glibc
import ThumbsRendering

/// A file's bytes, read where they are needed: through a descriptor already open (a render
/// worker's, which may not open paths), or from memory.
package struct FileBytes {
    package let size: UInt64
    private let reader: (_ offset: UInt64, _ count: Int) -> [UInt8]

    /// `file`, of `size` bytes; reads are `pread`s, which leave its descriptor's position alone.
    package init(_ file: OpenedFile, size: UInt64) {
        self.size = size
        reader = { offset, count in
            let descriptor = file.descriptor
            guard let position = off_t(exactly: offset) else { return [] }
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, count, position) }
            return got <= 0 ? [] : Array(bytes.prefix(got))
        }
    }

    package init(_ bytes: [UInt8]) {
        size = UInt64(bytes.count)
        reader = { offset, count in
            guard offset < UInt64(bytes.count) else { return [] }
            return Array(bytes.dropFirst(Int(offset)).prefix(count))
        }
    }

    /// Up to `count` bytes at `offset` (fewer at the end of the file, none past it or on an
    /// error), big-endian for the formats read here.
    package func read(at offset: UInt64, count: Int) -> BoundedBytes {
        guard offset < size, count > 0 else { return BoundedBytes([]) }
        return BoundedBytes(reader(offset, Int(min(UInt64(count), size - offset))))
    }
}
