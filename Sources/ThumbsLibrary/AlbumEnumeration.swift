/// The albums of one enumeration of a library, with what the enumeration read and noticed; see
/// ``PhotoLibrary/enumerateAlbums()``.
public struct AlbumEnumeration: Sendable {
    public var albums = AlbumBuilder()
    /// How many assets came from the metadata cache, and how many were read from their files.
    public var fromCache = 0
    public var inspected = 0
    /// What could not be included, or only in part.
    public var issues: [LibraryIssue] = []

    public init() {}

    /// Adds `batch`'s assets to the albums, and its counts and issues to this enumeration's.
    public mutating func add(_ batch: LibraryBatch) {
        albums.add(batch)
        fromCache += batch.fromCache
        inspected += batch.inspected
        issues += batch.issues
    }
}
