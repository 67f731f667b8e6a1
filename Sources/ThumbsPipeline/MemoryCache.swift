import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// The in-memory tier: recently used thumbnails up to a byte cost, least recently used first out.
///
/// Also finds, for one version of an asset's file, the cached rendition closest to a size (a
/// degraded stand-in). All state is behind one mutex.
final class MemoryCache: Sendable {
    private struct Entry {
        var thumbnail: Thumbnail
        var stamp: UInt64
    }

    private struct State {
        var entries: [ThumbnailKey: Entry] = [:]
        /// Keys in the order they were used, stamped; an older stamp than the entry's is stale
        /// and skipped (lazy deletion keeps every operation O(1) amortised).
        var order: [(key: ThumbnailKey, stamp: UInt64)] = []
        var orderHead = 0
        var clock: UInt64 = 0
        var cost = 0
        var byVersion: [Version: Set<ThumbnailKey>] = [:]
    }

    private struct Version: Hashable {
        let assetID: String
        let fingerprint: FileFingerprint
    }

    let costLimit: Int
    private let state = LockedValue(State())

    init(costLimit: Int) {
        self.costLimit = costLimit
    }

    var cost: Int { state.withLock { $0.cost } }

    /// Use records held, live and stale (bounded by about twice the entries).
    var orderLength: Int { state.withLock { $0.order.count - $0.orderHead } }

    func thumbnail(for key: ThumbnailKey) -> Thumbnail? {
        state.withLock { state in
            guard var entry = state.entries[key] else { return nil }
            state.clock += 1
            entry.stamp = state.clock
            state.entries[key] = entry
            state.order.append((key, state.clock))
            Self.compact(&state)
            return entry.thumbnail
        }
    }

    func contains(_ key: ThumbnailKey) -> Bool {
        state.withLock { $0.entries[key] != nil }
    }

    func insert(_ thumbnail: Thumbnail, for key: ThumbnailKey) {
        let cost = thumbnail.bytes.count
        guard cost <= costLimit else { return }
        state.withLock { state in
            state.clock += 1
            if let old = state.entries[key] { state.cost -= old.thumbnail.bytes.count }
            state.entries[key] = Entry(thumbnail: thumbnail, stamp: state.clock)
            state.order.append((key, state.clock))
            state.byVersion[Version(assetID: key.assetID, fingerprint: key.fingerprint), default: []].insert(key)
            state.cost += cost
            while state.cost > costLimit, state.orderHead < state.order.count {
                let (oldest, stamp) = state.order[state.orderHead]
                state.orderHead += 1
                guard let entry = state.entries[oldest], entry.stamp == stamp else { continue }
                state.entries[oldest] = nil
                state.cost -= entry.thumbnail.bytes.count
                let version = Version(assetID: oldest.assetID, fingerprint: oldest.fingerprint)
                state.byVersion[version]?.remove(oldest)
                if state.byVersion[version]?.isEmpty == true { state.byVersion[version] = nil }
            }
            Self.compact(&state)
        }
    }

    /// Among the cached renditions of this version of the asset other than `key`'s, the one
    /// closest in size to `size` (with `atLeast`, only those covering it; with `servingFinal`,
    /// only those that may stand for `key`'s final image, see `RenditionChoice`).
    func closest(
        to key: ThumbnailKey, size: PixelSize, atLeast: Bool,
        servingFinal: Bool = false
    ) -> (key: ThumbnailKey, thumbnail: Thumbnail)? {
        state.withLock { state in
            let keys = state.byVersion[Version(assetID: key.assetID, fingerprint: key.fingerprint)] ?? []
            let usable = keys.filter { other in
                other != key && (!servingFinal || RenditionChoice.canServeAsFinal(other.rendition, for: key.rendition))
            }
            let candidates = usable.compactMap { other in
                state.entries[other].map { (other, $0.thumbnail) }
            }
            return RenditionChoice.closest(candidates, to: size, atLeast: atLeast, size: \.1.pixelSize)
        }
    }

    /// Drops stale stamps once they outnumber live entries, so that hits on a cache under its
    /// limit (where eviction never advances `orderHead`) do not grow `order` without bound.
    private static func compact(_ state: inout State) {
        guard state.order.count - state.orderHead > 2 * state.entries.count + 1024 else { return }
        state.order = state.order[state.orderHead...].filter { state.entries[$0.key]?.stamp == $0.stamp }
        state.orderHead = 0
    }
}
