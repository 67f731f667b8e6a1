import ThumbsStore
import ThumbsSupport

/// Thumbnails rendered for display, written to the store after they were delivered.
///
/// A display request must not wait for the store's commit (an `fsync`, milliseconds on a busy
/// disk): the image goes to the caller as soon as it is rendered, and the write follows. One
/// writer drains the queue; renders that finish while a commit is running are written together
/// in the next one, so a flick through a grid costs a few commits rather than one per cell. A
/// failed write costs the cache, never the image. ``flushed()`` waits until everything queued
/// so far is written (a command about to exit, a test).
final class StoreWriteBehind: Sendable {
    private struct State {
        var pending: [ThumbnailStore.ThumbnailEntry] = []
        var draining = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let store: ThumbnailStore
    private let state = LockedValue(State())

    init(store: ThumbnailStore) {
        self.store = store
    }

    /// Queues `entry` for the store, starting the writer if it is idle.
    func enqueue(_ entry: ThumbnailStore.ThumbnailEntry) {
        let start = state.withLock { state in
            state.pending.append(entry)
            guard !state.draining else { return false }
            state.draining = true
            return true
        }
        // Detached: the write is not cancelled with the request that rendered the image.
        if start { Task.detached(priority: .utility) { await self.drain() } }
    }

    /// Returns once every thumbnail queued before the call has been written (or failed to be).
    func flushed() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state in
                guard state.draining else { return true }
                state.waiters.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }

    private func drain() async {
        while true {
            let (batch, waiters) = state.withLock {
                state -> ([ThumbnailStore.ThumbnailEntry], [CheckedContinuation<Void, Never>]) in
                guard state.pending.isEmpty else {
                    defer { state.pending.removeAll() }
                    return (state.pending, [])
                }
                state.draining = false
                defer { state.waiters.removeAll() }
                return ([], state.waiters)
            }
            guard !batch.isEmpty else {
                for waiter in waiters { waiter.resume() }
                return
            }
            _ = try? await store.putThumbnails(batch)
        }
    }
}
