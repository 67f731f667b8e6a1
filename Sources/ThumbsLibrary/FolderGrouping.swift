import SystemPackage

/// What the walk's assets become once the files of one folder that are one asset (a Live
/// Photo's still and movie) or one burst are grouped: each grouping holds its files until its
/// partner comes or the walk leaves their folder.
struct FolderGrouping {
    private var livePhotos = LivePhotoPairing()
    private var bursts = BurstGrouping()

    /// `assets` less those waiting for their group, with the groups they complete.
    mutating func admit(_ assets: [Asset]) -> [Asset] {
        bursts.admit(livePhotos.admit(assets))
    }

    /// What waited in `folder`, now that the walk has left it.
    mutating func release(root: String, folder: FilePath) -> [Asset] {
        let unpaired = bursts.admit(livePhotos.release(root: root, folder: folder))
        return unpaired + bursts.release(root: root, folder: folder)
    }

    /// Everything still waiting.
    mutating func releaseAll() -> [Asset] {
        bursts.admit(livePhotos.releaseAll()) + bursts.releaseAll()
    }
}
