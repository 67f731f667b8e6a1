extension ThumbnailStore {
    /// Among the stored renditions of the same version of the asset other than `key`'s, the one
    /// closest in size to `size` (with `atLeast`, only those covering it), copied out: the
    /// degraded stand-in of opportunistic delivery, or an acceptable final one for a fast resize.
    /// Neither a hit nor an access.
    ///
    /// With `servingFinal`, only whole-picture (fit) renditions in `key`'s format qualify: a
    /// fill rendition is cropped to another shape and cannot stand for the final image.
    public func closestThumbnail(to key: ThumbnailKey, size: PixelSize, atLeast: Bool,
                                 servingFinal: Bool = false) throws(StoreError) -> StoredThumbnail? {
        let exact = try key.encoded()
        let prefix = try ThumbnailKey.assetPrefix(key.assetID) + ThumbnailKey.fingerprintBytes(key.fingerprint)
        return try environment.read { transaction throws(StoreError) -> StoredThumbnail? in
            var candidates: [(key: [UInt8], size: PixelSize)] = []
            try transaction.forEach(thumbnails, from: prefix) { candidate, record throws(StoreError) in
                guard candidate.count >= prefix.count, candidate.prefix(prefix.count).elementsEqual(prefix) else { return false }
                let header = try StoredThumbnail.Header(decoding: record)
                let rendition = String(decoding: candidate.dropFirst(prefix.count), as: UTF8.self)
                let usable = !servingFinal
                    || (rendition.contains("-\(ContentMode.aspectFit.rawValue)-") && header.format == key.rendition.format)
                if !candidate.elementsEqual(exact) && usable {
                    candidates.append((Array(candidate), header.pixelSize))
                }
                return true
            }
            guard let chosen = RenditionChoice.closest(candidates, to: size, atLeast: atLeast, size: \.size) else { return nil }
            return try transaction.withValue(thumbnails, chosen.key) { record throws(StoreError) in
                try StoredThumbnail(decoding: record)
            }
        }
    }
}
