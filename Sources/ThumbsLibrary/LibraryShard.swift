import ThumbsSupport

/// One of `count` disjoint parts of a library, for warming it on several machines at once: an
/// asset belongs to shard `index` when its id hashes there, so the same asset lands in the same
/// shard whatever the machine, the process or the order of the walk, and the shards together
/// are the whole library.
///
/// The id is decided by the root and the path inside it (see ``AssetID``), so every shard must
/// name the root by the same path (a shared file system mounted at the same place).
///
/// ```swift
/// let shard = try LibraryShard(parsing: "2/4")  // the third of four
/// let part = PhotoLibrary(roots: ["/photos"], includeHidden: false, renderer: renderer, store: nil, shard: shard)
/// ```
public struct LibraryShard: Sendable, Hashable, CustomStringConvertible {
    /// From 0 to `count - 1`.
    public let index: Int
    public let count: Int

    /// Why a shard could not be made.
    public struct Invalid: Error, Sendable, Hashable, CustomStringConvertible {
        public var description: String
    }

    public init(index: Int, count: Int) throws(Invalid) {
        guard count >= 1 else { throw Invalid(description: "the number of shards must be at least 1, not \(count)") }
        guard (0..<count).contains(index) else {
            throw Invalid(description: "shard \(index) is not one of 0 to \(count - 1)")
        }
        self.index = index
        self.count = count
    }

    /// `K/N`, as `--shard` takes it: shard K (counted from 0) of N.
    public init(parsing text: String) throws(Invalid) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Int(parts[0]), let count = Int(parts[1]) else {
            throw Invalid(description: "\"\(text)\" is not K/N (shard K of N, K from 0)")
        }
        try self.init(index: index, count: count)
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the asset of `assetID` (an ``AssetID``) is in this shard.
    public func contains(assetID: String) -> Bool {
        Self.shard(of: assetID, count: count) == index
    }

    /// The shard, of `count`, an asset id belongs to.
    static func shard(of assetID: String, count: Int) -> Int {
        // An id is FNV-1a's 64 bits in hex; any other string is hashed the same way first.
        var hash: UInt64
        if let parsed = UInt64(assetID, radix: 16) {
            hash = parsed
        } else {
            var fnv = FNV1a()
            fnv.add(assetID.utf8)
            hash = fnv.value
        }
        // FNV-1a's low bits follow the last bytes hashed (the file name's ending) too closely for
        // a modulo: mix every bit into every other first (the SplitMix64 finalizer).
        hash = (hash ^ (hash >> 30)) &* 0xbf58_476d_1ce4_e5b9
        hash = (hash ^ (hash >> 27)) &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % UInt64(count))
    }
}
