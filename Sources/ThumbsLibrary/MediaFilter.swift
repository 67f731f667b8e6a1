/// Which assets a count covers.
public enum MediaFilter: String, Sendable, CaseIterable {
    case all, photos, videos
}
