/// A library operation that could not be carried out.
public enum LibraryError: Error, Sendable, Hashable, CustomStringConvertible {
    case watchFailed(String)

    public var description: String {
        switch self {
        case .watchFailed(let reason): "cannot watch the library: \(reason)"
        }
    }
}
