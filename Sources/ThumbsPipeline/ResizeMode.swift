/// Which cached renditions may serve a request, as `PHImageRequestOptionsResizeMode`.
public enum ResizeMode: String, Sendable, Hashable, CaseIterable, Codable {
    /// Only the exact rendition asked for.
    case none
    /// Any cached rendition of the same file at least as large as the target box.
    case fast
    /// Only the exact rendition asked for, rendered to exactly the requested box.
    case exact
}
