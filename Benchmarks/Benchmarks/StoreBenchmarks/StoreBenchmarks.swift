import Benchmark
import BenchmarkSupport
import CLMDBRaw
import Foundation
import Thumbs

/// The thumbnail store against raw LMDB, in one run: hit latency for a 20 KB thumbnail, batched
/// writes, the cost of eviction, and the rate of a merge.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        maxDuration: .seconds(5),
        maxIterations: 200_000)

    let rendition = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
    let thumbnail = Thumbnail(
        bytes: (0..<20_000).map { UInt8(truncatingIfNeeded: $0 &* 7) },
        pixelSize: PixelSize(width: 256, height: 256), format: .jpeg)
    func key(_ index: Int) -> ThumbnailKey {
        ThumbnailKey(
            assetID: "asset-\(index)", fingerprint: FileFingerprint(size: 1, modificationTimeNanoseconds: 1),
            rendition: rendition)
    }
    func folder(_ name: String) -> String { ScratchFolder.make(name) }

    // MARK: Hits

    let hitFolder = folder("hits")
    let entries = 1_000
    let hitStore = try! ThumbnailStore(configuration: StoreConfiguration(path: hitFolder))
    let filled = DispatchSemaphore(value: 0)
    Task.detached {
        for batch in 0..<(entries / 100) {
            try! await hitStore.putThumbnails(
                (0..<100).map { ThumbnailStore.ThumbnailEntry(key: key(batch * 100 + $0), thumbnail: thumbnail) })
        }
        filled.signal()
    }
    filled.wait()

    // Keys are made before measuring, as for the raw gets below.
    let hitKeys = (0..<entries).map(key)

    Benchmark("Store hit, 20 KB, copied out (thumbnail(for:))") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try! hitStore.thumbnail(for: hitKeys[index % entries]))
        }
    }

    Benchmark("Store hit, 20 KB, lent (withThumbnailBytes)") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(try! hitStore.withThumbnailBytes(for: hitKeys[index % entries]) { bytes, _, _ in bytes.count })
        }
    }

    // Its own file: LMDB must not have one file open twice in a process. Keys and values are
    // shaped like the store's (a ~45-byte key, a 20 KB record).
    let raw = RawLMDB(path: folder("raw"), database: "thumbnails")
    let rawKeys = (0..<entries).map { Array("asset-\($0)\u{0}0123456789abcdef256x256-fill-q82.jpeg".utf8) }
    raw.fill(keys: rawKeys, value: [UInt8](repeating: 7, count: 20_018))

    Benchmark("Raw LMDB get, 20 KB, lent (mdb_get in a renewed read txn)") { benchmark in
        for index in benchmark.scaledIterations {
            blackHole(raw.get(rawKeys[index % rawKeys.count]))
        }
    }

    // MARK: Writes and eviction

    Benchmark(
        "Batched put, 100 × 20 KB per transaction",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(5), maxIterations: 200)
    ) { benchmark in
        let store = try! ThumbnailStore(configuration: StoreConfiguration(path: folder("puts")))
        var next = 0
        for _ in benchmark.scaledIterations {
            let batch = (0..<100).map { ThumbnailStore.ThumbnailEntry(key: key(next + $0), thumbnail: thumbnail) }
            next += 100
            try! await store.putThumbnails(batch)
        }
    }

    Benchmark(
        "Evict 100 least recently used entries",
        configuration: .init(metrics: [.wallClock], maxDuration: .seconds(5), maxIterations: 200)
    ) { benchmark in
        let store = try! ThumbnailStore(configuration: StoreConfiguration(path: folder("evict")))
        var next = 0
        for _ in 0..<20 {
            try! await store.putThumbnails(
                (0..<100).map { ThumbnailStore.ThumbnailEntry(key: key(next + $0), thumbnail: thumbnail) })
            next += 100
        }
        for _ in benchmark.scaledIterations {
            try! await store.putThumbnails(
                (0..<100).map { ThumbnailStore.ThumbnailEntry(key: key(next + $0), thumbnail: thumbnail) })
            next += 100
            let live = try! store.statistics().liveBytes.bytes
            let perEntry = live / Int64(try! store.statistics().thumbnails)
            benchmark.startMeasurement()
            try! await store.evict(downTo: ByteCount(live - perEntry * 100))
            benchmark.stopMeasurement()
        }
    }

    // MARK: Merge

    // Four caches written once, before any merge is measured, and closed (their writes reach the
    // disk at each commit): the merges then measure reading them and writing the result.
    let perSource = 2_500
    let mergeSources = (0..<4).map { folder("merge-source-\($0)") }
    let sourcesWritten = DispatchSemaphore(value: 0)
    Task.detached {
        for (source, path) in mergeSources.enumerated() {
            let store = try! ThumbnailStore(configuration: StoreConfiguration(path: path))
            for batch in 0..<(perSource / 100) {
                try! await store.putThumbnails(
                    (0..<100).map {
                        ThumbnailStore.ThumbnailEntry(
                            key: key(source * perSource + batch * 100 + $0), thumbnail: thumbnail)
                    })
            }
        }
        sourcesWritten.signal()
    }
    sourcesWritten.wait()

    Benchmark(
        "Merge 4 caches of 2,500 × 20 KB into a new one",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let destination = StoreConfiguration(path: folder("merged"), budget: ByteCount(4 << 30))
            benchmark.startMeasurement()
            let report = try! ThumbnailStore.merge(into: destination, from: mergeSources)
            benchmark.stopMeasurement()
            precondition(report.thumbnails == 4 * perSource)
            try? FileManager.default.removeItem(atPath: destination.path)
        }
    }

    // The floor for the same bytes: the four cache files copied as they are, each synced to the disk.
    Benchmark(
        "Copy the 4 caches' files (copyItem + fsync)",
        configuration: .init(metrics: [.wallClock, .throughput], maxDuration: .seconds(20), maxIterations: 10)
    ) { benchmark in
        for _ in benchmark.scaledIterations {
            let target = folder("copied")
            try! FileManager.default.createDirectory(atPath: target, withIntermediateDirectories: true)
            benchmark.startMeasurement()
            for (index, source) in mergeSources.enumerated() {
                let copy = target + "/data-\(index).mdb"
                try! FileManager.default.copyItem(atPath: source + "/data.mdb", toPath: copy)
                let descriptor = open(copy, O_RDONLY)
                fsync(descriptor)
                close(descriptor)
            }
            benchmark.stopMeasurement()
            try? FileManager.default.removeItem(atPath: target)
        }
    }
}

/// Plain liblmdb on the store's file, read the fastest way LMDB allows: one read transaction
/// renewed per lookup, the value lent, not copied.
final class RawLMDB: @unchecked Sendable {
    private var environment: OpaquePointer?
    private var transaction: OpaquePointer?
    private var database: MDB_dbi = 0

    init(path: String, database name: String) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        check(mdb_env_create(&environment))
        check(mdb_env_set_maxdbs(environment, 8))
        check(mdb_env_set_mapsize(environment, 256 << 20))
        check(mdb_env_open(environment, path, UInt32(MDB_NOTLS | MDB_NOMETASYNC | MDB_NORDAHEAD), 0o644))
        var setup: OpaquePointer?
        check(mdb_txn_begin(environment, nil, 0, &setup))
        check(mdb_dbi_open(setup, name, UInt32(MDB_CREATE), &database))
        check(mdb_txn_commit(setup))
        check(mdb_txn_begin(environment, nil, UInt32(MDB_RDONLY), &transaction))
        mdb_txn_reset(transaction)
    }

    func fill(keys: [[UInt8]], value: [UInt8]) {
        var writer: OpaquePointer?
        check(mdb_txn_begin(environment, nil, 0, &writer))
        for key in keys {
            key.withUnsafeBytes { keyBytes in
                value.withUnsafeBytes { valueBytes in
                    var k = MDB_val(
                        mv_size: keyBytes.count, mv_data: UnsafeMutableRawPointer(mutating: keyBytes.baseAddress))
                    var v = MDB_val(
                        mv_size: valueBytes.count, mv_data: UnsafeMutableRawPointer(mutating: valueBytes.baseAddress))
                    check(mdb_put(writer, database, &k, &v, 0))
                }
            }
        }
        check(mdb_txn_commit(writer))
    }

    private func check(_ code: Int32) {
        precondition(code == 0, String(cString: mdb_strerror(code)))
    }

    func get(_ key: [UInt8]) -> Int {
        mdb_txn_renew(transaction)
        defer { mdb_txn_reset(transaction) }
        var value = MDB_val()
        return key.withUnsafeBytes { bytes in
            var keyValue = MDB_val(mv_size: bytes.count, mv_data: UnsafeMutableRawPointer(mutating: bytes.baseAddress))
            mdb_get(transaction, database, &keyValue, &value)
            return value.mv_size
        }
    }
}
