import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// Among the stored renditions of the same version of the asset other than `key`'s, the one
    /// closest in size to `size` (with `atLeast`, only those covering it), copied out: the
    /// degraded stand-in of opportunistic delivery, or an acceptable final one for a fast resize.
    /// Neither a hit nor an access.
    ///
    /// With `servingFinal`, only renditions that may stand for `key`'s final image qualify (see
    /// `RenditionChoice`).
    public func closestThumbnail(
        to key: ThumbnailKey, size: PixelSize, atLeast: Bool,
        servingFinal: Bool = false
    ) throws(StoreError) -> StoredThumbnail? {
        let exact = try key.encoded()
        let prefix = try ThumbnailKey.assetPrefix(key.assetID) + ThumbnailKey.fingerprintBytes(key.fingerprint)
        return try environment.read { transaction throws(StoreError) -> StoredThumbnail? in
            var candidates: [(key: [UInt8], size: PixelSize)] = []
            try transaction.forEach(thumbnails, from: prefix) { candidate, record throws(StoreError) in
                guard candidate.count >= prefix.count, candidate.prefix(prefix.count).elementsEqual(prefix) else {
                    return false
                }
                let header = try StoredThumbnail.Header(decoding: record)
                // A key of another layout (an older version's) stands in for nothing.
                guard !candidate.elementsEqual(exact),
                    let rendition = RenditionSpec(
                        storageKey: UnsafeRawBufferPointer(rebasing: candidate[prefix.count...]))
                else { return true }
                if !servingFinal || RenditionChoice.canServeAsFinal(rendition, for: key.rendition) {
                    candidates.append((Array(candidate), header.pixelSize))
                }
                return true
            }
            guard let chosen = RenditionChoice.closest(candidates, to: size, atLeast: atLeast, size: \.size) else {
                return nil
            }
            return try transaction.withValue(thumbnails, chosen.key) { record throws(StoreError) in
                try StoredThumbnail(decoding: record)
            }
        }
    }

    /// The stored rendition of this version of the asset's file with the fewest pixels, copied
    /// out, whatever its spec: what a placeholder is made from when nothing is rendered. Neither
    /// a hit nor an access.
    public func smallestThumbnail(of assetID: String, fingerprint: FileFingerprint) throws(StoreError)
        -> StoredThumbnail?
    {
        let prefix = try ThumbnailKey.assetPrefix(assetID) + ThumbnailKey.fingerprintBytes(fingerprint)
        return try environment.read { transaction throws(StoreError) -> StoredThumbnail? in
            var smallest: (key: [UInt8], area: Double)?
            try transaction.forEach(thumbnails, from: prefix) { candidate, record throws(StoreError) in
                guard candidate.count >= prefix.count, candidate.prefix(prefix.count).elementsEqual(prefix) else {
                    return false
                }
                let size = try StoredThumbnail.Header(decoding: record).pixelSize
                // In floating point: a damaged record's sides may overflow an Int's product.
                let area = Double(size.width) * Double(size.height)
                if area < smallest?.area ?? .infinity { smallest = (Array(candidate), area) }
                return true
            }
            guard let smallest else { return nil }
            return try transaction.withValue(thumbnails, smallest.key) { record throws(StoreError) in
                try StoredThumbnail(decoding: record)
            }
        }
    }
}
