import SystemPackage
import ThumbsSupport

/// How asset ids are made: 16 hex digits of a 64-bit FNV-1a hash of the root and the relative
/// path. Stable across runs, processes and machines (Swift's `Hasher` is seeded per process, so
/// it cannot be used), short enough for cache keys; collisions are negligible below ~10⁸ assets.
public enum AssetID {
    public static func make(root: String, relativePath: String) -> String {
        make(root: root, relativeBytes: Array(relativePath.utf8))
    }

    /// The id of the file at `relativeFilePath` under `root`, from the path's bytes (for a
    /// UTF-8 name, the same id as ``make(root:relativePath:)``).
    public static func make(root: String, relativeFilePath: FilePath) -> String {
        make(root: root, relativeBytes: relativeFilePath.bytes)
    }

    private static func make(root: String, relativeBytes: [UInt8]) -> String {
        var hash = FNV1a()
        hash.add(root.utf8)
        hash.add(UInt8(0))
        hash.add(relativeBytes)
        return hash.hex
    }
}
