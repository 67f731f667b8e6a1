extension PhotoLibrary {
    /// The file at `path` as an asset: beneath the library root holding it, as the walk lists
    /// it, else beneath its own folder (``Asset/inspecting(file:beneath:with:)``).
    public func asset(forFile path: String) async throws -> Asset {
        try await Asset.inspecting(file: path, beneath: roots, with: renderer)
    }

    /// The asset whose id is `id`, found by walking the library; nil when none has it.
    public func asset(withID id: String) async throws -> Asset? {
        for try await batch in assets() {
            if let asset = batch.assets.first(where: { $0.id == id }) { return asset }
        }
        return nil
    }

    /// Enumerates the library into its albums, counting what came from the metadata cache and
    /// keeping the issues: memory grows with the number of folders, not of assets.
    public func enumerateAlbums() async throws -> AlbumEnumeration {
        var enumeration = AlbumEnumeration()
        for try await batch in assets() { enumeration.add(batch) }
        return enumeration
    }
}
