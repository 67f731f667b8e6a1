import CLMDB
import Foundation
import Synchronization
import ThumbsCore
import ThumbsSupport

/// An open LMDB environment: one per path per process, shared by everyone in the process who
/// opens that path (LMDB forbids opening the same environment twice in one process).
///
/// Reads run on the caller's thread in reused read transactions (`MDB_NOTLS`, reset and renewed,
/// never begun afresh when one is free); writes are serialized by the caller (the store funnels
/// them through one writer thread). The map grows when full, and adopts a size another process
/// set. The C handles never leave this type and ``LMDBTransaction``.
///
/// `@unchecked Sendable`: LMDB environments are thread-safe by design; the free read
/// transactions are guarded by `freeReaders`' mutex, and changing the map size (which LMDB
/// allows only while this process has no live transaction) happens under `mapLock`'s exclusive
/// side while every transaction holds its shared side.
final class LMDBEnvironment: @unchecked Sendable {
    struct Options: Sendable, Hashable {
        /// Map size at first open; it doubles whenever it fills up, to at most `maximumMapSize`.
        var initialMapSize = 256 << 20
        var maximumMapSize = 1 << 40
        var databaseNames: [String] = []
        var maxReaders: UInt32 = 512
        /// Whether to hold the shared `thumbs.lock` while open. Only compaction, which holds it
        /// exclusively itself, opens without.
        var takesProcessLock = true
        /// Whether to wait for the process lock while a compaction or a merge into the cache
        /// holds it, rather than fail with `EBUSY`. A merge reads its sources without waiting:
        /// two merges into each other's sources would otherwise wait for each other forever.
        var waitsForProcessLock = true
    }

    /// Read transactions kept for reuse; more are aborted when returned, so that a burst of
    /// readers does not keep reader slots (shared by every process) forever.
    private static let pooledReaders = 64

    let path: String
    private let environment: OpaquePointer
    private let mapLock = SharedExclusiveLock()
    private let freeReaders = LockedValue<[UnsafeSendablePointer]>([])
    private let processLock: CInt
    /// Taken (with `writerMutex` in the process) before a write transaction begins, so that a
    /// writer waiting for another process never holds `mapLock` meanwhile.
    private let writerLock: CInt
    private let writerMutex = NSLock()
    private let maximumMapSize: Int
    let databases: [String: LMDBDatabase]
    /// Reader slots of dead processes found and freed when the environment was opened.
    let staleReadersCleared: Int

    private static let registry = EnvironmentRegistry()

    /// The environment at `path` (a folder, created if needed), opened once per process.
    static func open(path: String, options: Options) throws(StoreError) -> LMDBEnvironment {
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .store("cannot create the cache folder: \(error.localizedDescription)", "open \(path)")
        }
        let canonical = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        return try registry.environment(at: canonical) { () throws(StoreError) in
            try LMDBEnvironment(path: canonical, options: options)
        }
    }

    /// Whether `path` is open in this process.
    static func isOpen(path: String) -> Bool {
        registry.lookup(URL(fileURLWithPath: path).resolvingSymlinksInPath().path) != nil
    }

    private init(path: String, options: Options) throws(StoreError) {
        self.path = path
        maximumMapSize = options.maximumMapSize
        processLock = Glibc.open(path + "/thumbs.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        writerLock = Glibc.open(path + "/thumbs.writer", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        var created: OpaquePointer?
        do throws(StoreError) {
            guard processLock >= 0, writerLock >= 0 else { throw StoreError(code: errno, "open \(path)/thumbs.lock") }
            // Every process using the cache holds this shared lock; compaction takes it exclusively.
            if options.takesProcessLock {
                if options.waitsForProcessLock {
                    try Self.lock(processLock, LOCK_SH, "lock \(path)/thumbs.lock")
                } else if flock(processLock, LOCK_SH | LOCK_NB) != 0 {
                    throw StoreError(
                        resultCode: .busy, message: "a compaction or a merge into it is under way",
                        operation: "open \(path)")
                }
                // Holding the shared lock, no compaction or merge runs: a scratch folder is a
                // killed one's.
                Self.removeScratch(in: path)
            }
            // The file is checked before LMDB maps it (LMDBFileCheck), with writers held off so
            // that no meta page is caught half-written.
            try Self.lock(writerLock, LOCK_SH, "lock \(path)/thumbs.writer")
            do throws(StoreError) {
                try LMDBFileCheck.check(folder: path, depth: .opening)
                flock(writerLock, LOCK_UN)
            } catch {
                flock(writerLock, LOCK_UN)
                throw error
            }
            try check(mdb_env_create(&created), "create environment")
            guard let environment = created else { throw .store("no environment", "create environment") }
            try check(
                mdb_env_set_maxdbs(environment, MDB_dbi(max(1, options.databaseNames.count))), "set max databases")
            try check(mdb_env_set_maxreaders(environment, options.maxReaders), "set max readers")
            try check(mdb_env_set_mapsize(environment, options.initialMapSize), "set map size")
            // NOTLS: read transactions belong to the store's pool, not to threads, so any thread
            // may use any of them. NOMETASYNC: data pages are synced at every commit but the meta
            // page only at the next one, so a system crash may lose the last commit (a cache can
            // re-render it) but never corrupts the file; a killed process loses nothing committed.
            // NORDAHEAD: lookups are random, read-ahead would only evict useful pages.
            let flags = UInt32(MDB_NOTLS | MDB_NOMETASYNC | MDB_NORDAHEAD)
            try check(mdb_env_open(environment, path, flags, 0o644), "open \(path)")
            // Reader slots left by processes that died mid-read would pin old pages forever.
            var dead: Int32 = 0
            try check(mdb_reader_check(environment, &dead), "check readers")
            staleReadersCleared = Int(dead)
            databases = try Self.openDatabases(environment, names: options.databaseNames)
            self.environment = environment
        } catch {
            if let created { mdb_env_close(created) }
            if processLock >= 0 { close(processLock) }
            if writerLock >= 0 { close(writerLock) }
            throw error
        }
    }

    /// The prefixes of the folders compaction copies into and a merge writes into, inside the
    /// cache folder.
    static let compactionScratchPrefix = "compacting-"
    static let mergeScratchPrefix = "merging-"

    private static func removeScratch(in path: String) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        for name in names where name.hasPrefix(compactionScratchPrefix) || name.hasPrefix(mergeScratchPrefix) {
            try? FileManager.default.removeItem(atPath: path + "/" + name)
        }
    }

    /// flock, retried when a signal interrupts it.
    static func lock(_ descriptor: CInt, _ operation: CInt, _ what: String) throws(StoreError) {
        while flock(descriptor, operation) != 0 {
            guard errno == EINTR else { throw StoreError(code: errno, what) }
        }
    }

    deinit {
        Self.registry.closing(path) {
            for reader in freeReaders.withLock({ $0 }) { mdb_txn_abort(reader.pointer) }
            mdb_env_close(environment)
            // Unlocked before it is closed: a process being started at this moment holds a copy
            // of the descriptor until it runs its program, and the lock, which belongs to the
            // descriptor's every copy, would otherwise stay held that long (compaction would find
            // the cache busy).
            flock(processLock, LOCK_UN)
            close(processLock)
            close(writerLock)
        }
    }

    private static func openDatabases(
        _ environment: OpaquePointer, names: [String]
    ) throws(StoreError) -> [String: LMDBDatabase] {
        var transaction: OpaquePointer?
        try check(mdb_txn_begin(environment, nil, 0, &transaction), "begin")
        var databases: [String: LMDBDatabase] = [:]
        for name in names {
            var handle: MDB_dbi = 0
            let code = mdb_dbi_open(transaction, name, UInt32(MDB_CREATE), &handle)
            guard code == 0 else {
                mdb_txn_abort(transaction)
                throw StoreError(code: code, "open database \(name)")
            }
            databases[name] = LMDBDatabase(handle: handle)
        }
        try check(mdb_txn_commit(transaction), "commit database handles")
        return databases
    }

    subscript(name: String) -> LMDBDatabase {
        guard let database = databases[name] else { preconditionFailure("database \(name) was not declared") }
        return database
    }

    // MARK: Transactions

    /// Runs `body` in a read transaction (a consistent snapshot).
    func read<T>(_ body: (LMDBTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
        var clearedReaders = false
        while true {
            let outcome = mapLock.withShared { () -> Result<T, StoreError> in
                let reader: OpaquePointer
                do throws(StoreError) { reader = try takeReader() } catch { return .failure(error) }
                defer { giveBack(reader) }
                do throws(StoreError) {
                    return .success(try body(LMDBTransaction(pointer: reader, isReadOnly: true)))
                } catch {
                    return .failure(error)
                }
            }
            switch outcome {
            case .success(let value): return value
            case .failure(let error) where error.resultCode == .mapResized: try adoptMapSize()
            case .failure(let error) where error.resultCode == .readersFull && !clearedReaders:
                // Slots of crashed processes may be what fills the table.
                clearedReaders = true
                var dead: Int32 = 0
                mdb_reader_check(environment, &dead)
            case .failure(let error): throw error
            }
        }
    }

    /// LMDB reports a short write as EIO, which is what a full disk gives: the device's free
    /// space tells the two apart.
    private func commitError(_ code: Int32) -> StoreError {
        var device = statvfs()
        if code == ENOSPC || (code == EIO && statvfs(path, &device) == 0 && device.f_bavail * device.f_frsize < 1 << 20)
        {
            return StoreError(resultCode: .noSpace, message: "no space left on the cache's device", operation: "commit")
        }
        return StoreError(code: code, "commit")
    }

    private func giveBack(_ reader: OpaquePointer) {
        mdb_txn_reset(reader)
        let kept = freeReaders.withLock { free in
            guard free.count < Self.pooledReaders else { return false }
            free.append(UnsafeSendablePointer(pointer: reader))
            return true
        }
        if !kept { mdb_txn_abort(reader) }
    }

    /// Runs `body` in the write transaction and commits it. When the map is full, the map is
    /// doubled and `body` runs again from the start, so it must depend on its inputs only.
    /// Callers serialize writes (LMDB would block a second writer until the first commits).
    func write<T>(_ body: (LMDBTransaction) throws(StoreError) -> T) throws(StoreError) -> T {
        writerMutex.lock()
        defer { writerMutex.unlock() }
        try Self.lock(writerLock, LOCK_EX, "lock \(path)/thumbs.writer")
        defer { flock(writerLock, LOCK_UN) }
        while true {
            let outcome = mapLock.withShared { () -> Result<T, StoreError> in
                var begun: OpaquePointer?
                let code = mdb_txn_begin(environment, nil, 0, &begun)
                guard code == 0, let transaction = begun else { return .failure(StoreError(code: code, "begin write")) }
                let value: T
                do throws(StoreError) {
                    value = try body(LMDBTransaction(pointer: transaction, isReadOnly: false))
                } catch {
                    mdb_txn_abort(transaction)
                    return .failure(error)
                }
                // A failed commit has already freed the transaction: no abort after it.
                let committed = mdb_txn_commit(transaction)
                return committed == 0 ? .success(value) : .failure(commitError(committed))
            }
            switch outcome {
            case .success(let value): return value
            case .failure(let error) where error.resultCode == .mapFull: try growMap()
            case .failure(let error) where error.resultCode == .mapResized: try adoptMapSize()
            case .failure(let error): throw error
            }
        }
    }

    private func takeReader() throws(StoreError) -> OpaquePointer {
        if let free = freeReaders.withLock({ $0.popLast() }) {
            let code = mdb_txn_renew(free.pointer)
            guard code == 0 else {
                mdb_txn_abort(free.pointer)
                throw StoreError(code: code, "renew read")
            }
            return free.pointer
        }
        var begun: OpaquePointer?
        try check(mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &begun), "begin read")
        guard let reader = begun else { throw .store("no transaction", "begin read") }
        return reader
    }

    // MARK: Map size

    /// Doubles the map, up to the maximum. LMDB allows it only with no live transaction in this
    /// process, which the exclusive side of `mapLock` guarantees.
    private func growMap() throws(StoreError) {
        try mapLock.withExclusive { () throws(StoreError) in
            var info = MDB_envinfo()
            mdb_env_info(environment, &info)
            guard info.me_mapsize < maximumMapSize else {
                throw StoreError(code: MDB_MAP_FULL, "grow the map past \(ByteCount(Int64(maximumMapSize)))")
            }
            try check(mdb_env_set_mapsize(environment, min(info.me_mapsize * 2, maximumMapSize)), "grow the map")
        }
    }

    /// Adopts the map size another process grew the file to (after MDB_MAP_RESIZED).
    private func adoptMapSize() throws(StoreError) {
        try mapLock.withExclusive { () throws(StoreError) in
            try check(mdb_env_set_mapsize(environment, 0), "adopt the map size")
        }
    }

    // MARK: Maintenance

    /// Writes a compacted copy (free pages left out) into the empty folder `destination`.
    func copyCompacted(to destination: String) throws(StoreError) {
        try mapLock.withShared { () throws(StoreError) in
            try check(mdb_env_copy2(environment, destination, UInt32(MDB_CP_COMPACT)), "compact copy")
        }
    }

}

/// A raw pointer that may cross threads: the transactions it points to are handed from one
/// thread to the next through `freeReaders`' mutex, never used by two at once.
private struct UnsafeSendablePointer: @unchecked Sendable {
    let pointer: OpaquePointer
}

/// The environments open in this process, by canonical path. An entry whose environment is gone
/// but which is still listed is being closed: opening that path again waits for the close, since
/// LMDB must never have one file open twice in a process (closing one would drop the other's
/// file locks). The dictionary is guarded by `condition`.
private final class EnvironmentRegistry: @unchecked Sendable {
    private struct Entry {
        weak var environment: LMDBEnvironment?
    }

    private let condition = NSCondition()
    private var entries: [String: Entry] = [:]

    /// The environment open at `path`, else nil.
    func lookup(_ path: String) -> LMDBEnvironment? {
        condition.withLock { openEnvironment(at: path) }
    }

    /// The environment open at `path`, else the one `open` makes, registered.
    func environment(
        at path: String, orOpen open: () throws(StoreError) -> LMDBEnvironment
    ) throws(StoreError) -> LMDBEnvironment {
        condition.lock()
        defer { condition.unlock() }
        if let environment = openEnvironment(at: path) { return environment }
        let environment = try open()
        entries[path] = Entry(environment: environment)
        return environment
    }

    /// Call with `condition` locked: the live environment at `path`, waiting out a close.
    private func openEnvironment(at path: String) -> LMDBEnvironment? {
        while let entry = entries[path] {
            // Binding a strong reference here is safe: it is returned, never released inside
            // the lock (a last release would run deinit, which takes this lock).
            if let environment = entry.environment { return environment }
            condition.wait()
        }
        return nil
    }

    /// Runs `close` for the environment at `path`, then forgets it and wakes any waiting opener.
    func closing(_ path: String, _ close: () -> Void) {
        condition.withLock {
            close()
            entries[path] = nil
            condition.broadcast()
        }
    }
}
