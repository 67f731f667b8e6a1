/// Where a renderer decodes the files it is given.
public enum RenderIsolation: String, Sendable, Hashable, Codable, CaseIterable {
    /// In confined worker processes (`IsolatedThumbnailRenderer`, ThumbsIsolation): a fault in a decoder costs
    /// one file.
    case process
    /// In the calling process (`ThumbnailRenderer`): nothing to start, and a fault in a decoder
    /// ends the process.
    case none
}
