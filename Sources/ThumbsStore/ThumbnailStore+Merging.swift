import Foundation
import ThumbsCore
import ThumbsSupport

extension ThumbnailStore {
    /// What a merge made.
    public struct MergeReport: Sendable, Hashable {
        /// Caches read: the sources, and the destination when it held a cache already.
        public var inputs: Int
        /// Thumbnails in the result, and what they count against the budget.
        public var thumbnails = 0
        public var liveBytes: Int64 = 0
        /// Metadata records and remembered failures in the result.
        public var metadata = 0
        public var failures = 0
        /// Entries left out because another input held a newer one: under the same key, or
        /// for a newer version of the same file.
        public var superseded = 0
        /// Thumbnails left out, least recently used first, to keep the result within the budget.
        public var evicted = 0
        /// Records left out because they could not be read.
        public var unreadable = 0

        public init(inputs: Int) {
            self.inputs = inputs
        }
    }

    /// Combines the caches at `sources` with the cache at `destination.path` (created when there
    /// is none) into that one: thumbnails, metadata and remembered failures.
    ///
    /// Where two hold the same key, the newer wins (the thumbnail made last, the record of the
    /// newer file version, the failure met last), and an asset keeps one version of its file, as
    /// every write does. The destination's budget holds: past it, the least recently used
    /// thumbnails are left out, down to the low-water mark. The destination's own fetch-result
    /// cursors are kept; the sources' describe walks of their own and are not.
    ///
    /// The result is written in key order to a new file inside the destination's folder, which
    /// then replaces the destination's data file in one rename: a merge killed at any point
    /// leaves the destination as it was (a new one: empty), never half-merged. Like compaction,
    /// it needs the destination to itself (it fails with `EBUSY` if another process has it
    /// open); the sources may be in use, and are read from one snapshot each (a source being
    /// compacted or merged into fails with `EBUSY`). A source that is not a cache, is named
    /// twice, or is damaged fails the merge before anything is written; a source's failure
    /// names it in ``StoreError/mergeSource``.
    public static func merge(into destination: StoreConfiguration, from sources: [String]) throws(StoreError)
        -> MergeReport
    {
        let path = destination.path
        let operation = "merge into \(path)"
        guard !LMDBEnvironment.isOpen(path: path) else {
            throw .store("the cache is open in this process; close it first", operation)
        }
        func canonical(_ path: String) -> String {
            URL(fileURLWithPath: path).resolvingSymlinksInPath().standardizedFileURL.path
        }
        let target = canonical(path)
        var named: Set<String> = []
        for source in sources {
            guard FileManager.default.fileExists(atPath: source + "/data.mdb") else {
                throw StoreError.store("\(source) is not a Thumbs cache (it has no data.mdb)", operation)
                    .fromMergeSource(source)
            }
            let resolved = canonical(source)
            guard resolved != target else { throw .store("\(source) is the destination itself", operation) }
            guard named.insert(resolved).inserted else {
                throw .store("\(source) is named twice", operation)
            }
            do { try checkFile(path: source) } catch { throw error.fromMergeSource(source) }
        }
        do {
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        } catch {
            throw .store("cannot create the cache folder: \(error.localizedDescription)", operation)
        }
        return try replacingDataFile(of: path, scratchPrefix: LMDBEnvironment.mergeScratchPrefix, operation: operation)
        {
            scratch throws(StoreError) in
            let hadCache = FileManager.default.fileExists(atPath: path + "/data.mdb")
            if hadCache { try checkFile(path: path) }
            return try mergeIntoScratch(
                scratch, destination: hadCache ? path : nil, sources: sources, configuration: destination)
        }
    }

    /// Opens the inputs and the scratch environment, merges, and closes them all on return (the
    /// scratch file must be closed before it replaces the destination's).
    private static func mergeIntoScratch(
        _ scratch: String, destination: String?, sources: [String], configuration: StoreConfiguration
    ) throws(StoreError) -> MergeReport {
        var inputs: [LMDBEnvironment] = []
        if let destination {
            // Without the process lock: the caller holds it exclusively.
            inputs.append(
                try LMDBEnvironment.open(
                    path: destination, options: .init(databaseNames: StoreTables.all, takesProcessLock: false)))
        }
        for source in sources {
            do {
                inputs.append(
                    try LMDBEnvironment.open(
                        path: source, options: .init(databaseNames: StoreTables.all, waitsForProcessLock: false)))
            } catch {
                throw error.fromMergeSource(source)
            }
        }
        // A map the size of every input together, so that the one long transaction never fills it
        // (a full map would start it again from the beginning, twice as large).
        var size = 64 << 20
        for input in inputs {
            let usage = try input.read { $0.environmentUsage() }
            size += usage.pageSize * usage.pagesUsed * 5 / 4
        }
        let output = try LMDBEnvironment.open(
            path: scratch,
            options: .init(initialMapSize: size, databaseNames: StoreTables.all, takesProcessLock: false))
        return try StoreMerge(
            inputs: inputs, keepsCursorsOf: destination == nil ? nil : 0, output: output,
            budget: configuration.budget.bytes, lowWaterMark: configuration.lowWaterMark
        ).run()
    }
}
