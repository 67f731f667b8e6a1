import CGLib

/// The `file://` URI by which the desktop names a local file, and the MD5 of it that names the
/// file's thumbnails. Both come from GLib, as in every GTK and GNOME file manager: the path's
/// bytes percent-encoded by `g_filename_to_uri` (a name with spaces, non-ASCII letters or bytes
/// that are not UTF-8 gets exactly the URI a file manager computes), hashed by
/// `g_compute_checksum_for_string`.
public struct FileURI: Sendable, Hashable, CustomStringConvertible {
    /// The URI, ASCII only.
    public let string: String

    /// The URI of the file at `path`, an absolute path without `.` or `..` components, as bytes
    /// (a name need not be UTF-8); nil for a relative path or one holding a NUL byte.
    public init?(path: [UInt8]) {
        guard path.first == UInt8(ascii: "/"), !path.contains(0) else { return nil }
        let uri = (path + [0]).withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { g_filename_to_uri($0.baseAddress, nil, nil) }
        }
        guard let uri else { return nil }
        defer { g_free(uri) }
        string = String(cString: uri)
    }

    /// The URI of the file at `path`, a UTF-8 string (see the initialiser that takes bytes).
    public init?(path: String) {
        self.init(path: Array(path.utf8))
    }

    /// A URI read from a thumbnail; nil unless it names a local file.
    public init?(string: String) {
        guard string.hasPrefix("file:///") else { return nil }
        self.string = string
    }

    /// The path the URI names, as bytes (a name need not be UTF-8); nil when the URI is not a
    /// valid `file://` URI or names a path with `.` or `..` components.
    public var path: [UInt8]? {
        guard let filename = g_filename_from_uri(string, nil, nil) else { return nil }
        defer { g_free(filename) }
        let bytes = Array(UnsafeRawBufferPointer(start: filename, count: strlen(filename)))
        let components = bytes.split(separator: UInt8(ascii: "/"))
        guard !components.contains(where: { $0.elementsEqual([0x2E]) || $0.elementsEqual([0x2E, 0x2E]) }) else {
            return nil
        }
        return bytes
    }

    /// The lowercase hexadecimal MD5 of the URI: the stem of its thumbnails' file names.
    public var md5: String {
        let digest = g_compute_checksum_for_string(G_CHECKSUM_MD5, string, -1)!
        defer { g_free(digest) }
        return String(cString: digest)
    }

    /// Whether the URI names a file under the folder `folder` names (at any depth).
    public func isInside(_ folder: FileURI) -> Bool {
        let prefix = folder.string.hasSuffix("/") ? folder.string : folder.string + "/"
        return string.hasPrefix(prefix) && string.count > prefix.count
    }

    public var description: String { string }
}
