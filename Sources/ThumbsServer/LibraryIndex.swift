import Foundation
import Synchronization
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// The server's view of the library: the catalog the cache keeps (``/ThumbsLibrary/LibraryCatalog``),
/// read a page at a time, and the history of what its writes changed, for `/api/changes`. What
/// it holds in memory does not grow with the number of photos: the albums and days of the
/// current generation (a few records per folder and per day, and a moment's first assets for
/// the days listed), and a bounded history.
final class LibraryIndex: Sendable {
    let catalog: LibraryCatalog
    let roots: [String]

    private struct State: Sendable {
        var log: ChangeLog
        var albums: Albums?
        var days: [LibraryCatalog.Day]?
        /// The moments of the days listed so far, as `/api/moments` lists them.
        var moments: [Day: MomentJSON] = [:]
    }

    /// The albums as listed, and by URL id, as of `made`.
    struct Albums: Sendable {
        var list: [AssetCollection]
        var byURLID: [String: AssetCollection]
        var made: Date
    }

    private let state: Mutex<State>
    private let changeCount = Atomic<Int>(0)
    /// Where ``prepareLists()`` reads: off the cooperative threads, one read at a time.
    private let listReads = BlockingThreadPool(name: "thumbs-lists", threadCount: 1)
    /// How many days' moments ``prepareLists()`` reads ahead: the first page of `/api/moments`.
    let momentsReadAhead: Int
    /// How long a list of albums is kept at most: Recently Added moves with the clock.
    static let albumsLifetime: TimeInterval = 60

    init(catalog: LibraryCatalog, roots: [String], momentsReadAhead: Int = 200, historyLimit: Int = 1024) {
        self.catalog = catalog
        self.roots = roots
        self.momentsReadAhead = momentsReadAhead
        state = Mutex(State(log: ChangeLog(limit: historyLimit)))
    }

    /// The change token of now. Read before what a listing answers: a change the listing
    /// already shows may be reported again since the token, but none is missed.
    var token: String { state.withLock { $0.log.token } }

    /// How many changes the index has heard: an answer prepared at one generation holds as long
    /// as the generation is the same. Read without the lock.
    var generation: Int { changeCount.load(ordering: .acquiring) }

    /// The asset `id` names in the library, as the catalog keeps it.
    func asset(id: String) throws(StoreError) -> Asset? {
        try catalog.asset(id: id, roots: roots)
    }

    /// Notes what a write of the catalog changed (heard from the warm that wrote it).
    func note(_ changes: CatalogChanges) {
        state.withLock { state in
            state.log.append(
                ChangeLog.Entry(removed: changes.removed, inserted: changes.inserted, changed: changes.changed))
            state.albums = nil
            state.days = nil
            state.moments = [:]
            // Under the lock: a list read from the catalog before this change is not kept after it.
            changeCount.add(1, ordering: .releasing)
        }
    }

    /// The albums as `/api/albums` lists them, read from the catalog once per generation (and
    /// per ``albumsLifetime``).
    func albums(now: Date = Date()) throws(StoreError) -> Albums {
        if let kept = state.withLock({ $0.albums }), now.timeIntervalSince(kept.made) < Self.albumsLifetime {
            return kept
        }
        let generation = generation
        let list = try catalog.albums(roots: roots, now: now)
        let albums = Albums(
            list: list, byURLID: Dictionary(list.map { ($0.urlID, $0) }, uniquingKeysWith: { first, _ in first }),
            made: now)
        state.withLock { if self.generation == generation { $0.albums = albums } }
        return albums
    }

    /// The days of the library, newest first, read from the catalog once per generation.
    func days() throws(StoreError) -> [LibraryCatalog.Day] {
        if let kept = state.withLock({ $0.days }) { return kept }
        let generation = generation
        let days = try catalog.moments(roots: roots)
        state.withLock { if self.generation == generation { $0.days = days } }
        return days
    }

    /// The moments of `days` as `/api/moments` lists them (count, title, first assets): those
    /// read before in this generation as they were kept, the others read in one transaction.
    func moments(of days: ArraySlice<LibraryCatalog.Day>) throws(StoreError) -> [MomentJSON] {
        let generation = generation
        let days = Array(days)
        var moments = state.withLock { state in days.map { state.moments[$0.day] } }
        let missing = moments.indices.filter { moments[$0] == nil }
        if !missing.isEmpty {
            let shown = try catalog.ids(
                of: missing.map { .day(days[$0].day) }, roots: roots, limit: MomentJSON.assetsShown)
            for (index, ids) in zip(missing, shown) {
                moments[index] = MomentJSON(
                    days[index].day, count: days[index].photos + days[index].videos, assets: ids)
            }
            state.withLock { state in
                guard self.generation == generation else { return }
                for index in missing { state.moments[days[index].day] = moments[index] }
            }
        }
        return moments.compactMap(\.self)
    }

    /// Reads the days, the albums and the first page of moments of the current generation before
    /// a request asks for them: at a million assets, every day's counts and the first assets of
    /// 200 days take tens of milliseconds to read, which the first `/api/moments` after a start
    /// or a change would otherwise wait for. A read that fails is left to the next request,
    /// which answers with its error.
    func prepareLists() async {
        _ = try? await listReads.run(priority: .batch) { [self] in
            let days = try days()
            _ = try moments(of: days.prefix(momentsReadAhead))
            _ = try albums()
        }
    }

    /// What changed since `token`, and the token of now.
    func changes(since token: String) -> (lookup: ChangeLog.Lookup, token: String) {
        state.withLock { ($0.log.changes(since: token), $0.log.token) }
    }
}
