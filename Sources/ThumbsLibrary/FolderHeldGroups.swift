import SystemPackage

/// Assets held in groups (those of one identifier in one folder) until the walk has left their
/// folder, so that a group is decided on all its members whatever order the folder lists them
/// in: what ``LivePhotoPairing`` and ``BurstGrouping`` hold.
struct FolderHeldGroups {
    private struct Key: Hashable {
        let root: String
        let folder: FilePath
        let identifier: String
    }

    private var groups: [Key: [Asset]] = [:]

    /// `assets` less those `identifier` gives a group, which are held.
    mutating func admit(_ assets: [Asset], identifier: (Asset) -> String?) -> [Asset] {
        var ready: [Asset] = []
        for asset in assets {
            guard let identifier = identifier(asset) else {
                ready.append(asset)
                continue
            }
            let key = Key(
                root: asset.root, folder: asset.relativeFilePath.removingLastComponent(), identifier: identifier)
            groups[key, default: []].append(asset)
        }
        return ready
    }

    /// The groups of `folder`, now that the walk has left it, by identifier.
    mutating func release(root: String, folder: FilePath) -> [[Asset]] {
        release { $0.root == root && $0.folder == folder }
    }

    /// Every group still held, by identifier.
    mutating func releaseAll() -> [[Asset]] {
        release { _ in true }
    }

    private mutating func release(where matches: (Key) -> Bool) -> [[Asset]] {
        guard !groups.isEmpty else { return [] }
        let done = groups.filter { matches($0.key) }
        groups = groups.filter { !matches($0.key) }
        return done.sorted { $0.key.identifier < $1.key.identifier }.map(\.value)
    }
}
