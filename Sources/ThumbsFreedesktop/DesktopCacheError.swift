import ThumbsSupport

/// A file or folder of the desktop's thumbnail cache that could not be written: the path, the
/// system call and its `errno`.
public struct DesktopCacheError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var operation: String
    public var code: Int32

    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
    }

    public var description: String {
        "\(path): \(operation) failed: \(SystemError.describe(code))"
    }
}
