import Glibc
import ThumbsSupport

/// A file about to be imaged: its fingerprint and its content type, checked before libvips
/// sees it. Empty files, non-images and camera RAW files stop here.
struct ImageSource: Sendable {
    let path: String
    let fingerprint: FileFingerprint
    let mediaType: MediaType

    init(path: String) throws(ImagingError) {
        self.path = path
        fingerprint = try FileFingerprint(path: path)
        guard fingerprint.size > 0 else { throw .emptyFile }
        mediaType = MediaType(
            sniffing: try Self.readPrefix(of: path, count: MediaType.sniffLength),
            fileName: path)
        guard mediaType.isImage else {
            let detected =
                switch mediaType {
                case .unsupported: "not an image"
                case .cameraRaw: "camera raw"
                default: "\(mediaType.rawValue) video"
                }
            throw .unsupportedFormat(detected)
        }
    }

    static func readPrefix(of path: String, count: Int) throws(ImagingError) -> [UInt8] {
        try read(path) { descriptor in
            var bytes = [UInt8](repeating: 0, count: count)
            let got = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, count) }
            return got < 0 ? nil : Array(bytes.prefix(got))
        }
    }

    static func readSuffix(of path: String, count: Int) -> [UInt8] {
        (try? read(path) { descriptor in
            let end = lseek(descriptor, 0, SEEK_END)
            guard end >= 0 else { return nil }
            let start = max(0, end - off_t(count))
            var bytes = [UInt8](repeating: 0, count: Int(end - start))
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, start) }
            return got < 0 ? nil : Array(bytes.prefix(got))
        }) ?? []
    }

    private static func read(
        _ path: String, _ body: (Int32) -> [UInt8]?
    ) throws(ImagingError) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .unreadable(SystemError.describe(errno)) }
        defer { close(descriptor) }
        guard let bytes = body(descriptor) else { throw .unreadable(SystemError.describe(errno)) }
        return bytes
    }
}
