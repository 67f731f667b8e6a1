import CDecodeJournal
import Glibc
import Synchronization
import SystemPackage
import ThumbsCore
import ThumbsSupport

/// A ``/ThumbsCore/DecodeJournal`` kept beside a cache: one file per process in the cache's
/// `decoding/` folder, held under an exclusive `flock` for the life of the process, with a slot
/// for each decode under way.
///
/// A decode's note is one `pwrite` of its slot as it starts and one of the slot's first bytes
/// as it ends, with no `fsync`: what the process wrote is the kernel's the moment the call
/// returns, so a process that dies inside a decoder (the case this guards against) leaves it
/// behind, and a decode costs two system calls. ``leftovers(in:)`` reads the files whose lock
/// nobody holds any more: the decodes their processes never finished.
public final class DecodeJournalFile: DecodeJournal {
    /// The journal's folder inside a cache's.
    public static func directory(ofCache cachePath: String) -> FilePath {
        FilePath(cachePath).appending(folderName)
    }

    private static let folderName = "decoding"
    /// A slot holds a header and a root and a path of at most `PATH_MAX` bytes each.
    private static let headerSize = 29
    private static let slotSize = headerSize + 2 * Int(PATH_MAX)
    private static let magic: UInt32 = 0x5444_4A31  // "TDJ1"
    /// A note whose decode ended the process by a fatal signal.
    static let crashedMagic: UInt32 = 0x5444_4A43  // "TDJC"

    private let path: FilePath
    let descriptor: Int32
    private let slots = Mutex(SlotTable())

    /// Slots in use and free, by index.
    private struct SlotTable {
        var free: [Int] = []
        var count = 0

        mutating func take() -> Int {
            if let slot = free.popLast() { return slot }
            count += 1
            return count - 1
        }
    }

    /// Creates this process's journal in `directory` (made if missing), locked for as long as the
    /// journal lives. Call ``leftovers(in:)`` first: a file left by a dead process of the same
    /// process id is taken over. A file of that name still locked (a process of the same id in
    /// another pid namespace sharing the cache) is left alone, and another name taken.
    public init(directory: FilePath) throws(StoreError) {
        if mkdir(directory.string, 0o700) != 0 && errno != EEXIST {
            throw StoreError(code: errno, "create \(directory.displayString)")
        }
        var attempt = 0
        while true {
            let name = attempt == 0 ? "\(getpid())" : "\(getpid())-\(attempt)"
            let candidate = directory.appending(name)
            // Not truncated before it is locked: the file may be another live process's.
            let opened = open(candidate.string, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0o600)
            guard opened >= 0 else { throw StoreError(code: errno, "create \(candidate.displayString)") }
            if flock(opened, LOCK_EX | LOCK_NB) == 0 {
                guard ftruncate(opened, 0) == 0 else {
                    let code = errno
                    close(opened)
                    throw StoreError(code: code, "create \(candidate.displayString)")
                }
                path = candidate
                descriptor = opened
                break
            }
            let code = errno
            close(opened)
            attempt += 1
            guard code == EWOULDBLOCK, attempt < 100 else {
                throw StoreError(code: code, "lock \(candidate.displayString)")
            }
        }
        _ = Self.removedAtExit.withLock { $0.insert(path) }
        Self.registerRemovalAtExit
        thumbs_journal_watch_fatal_signals()
    }

    deinit {
        Self.removedAtExit.withLock { _ = $0.remove(path) }
        unlink(path.string)
        close(descriptor)
    }

    /// The journals of this process, removed when it exits normally (a command ends with
    /// `exit`, which runs no deinitializer): only a process that died leaves one behind.
    private static let removedAtExit = Mutex(Set<FilePath>())

    /// Registered once, by the first journal.
    private static let registerRemovalAtExit: Void = {
        atexit { for path in DecodeJournalFile.removedAtExit.withLock({ $0 }) { unlink(path.string) } }
    }()

    public func noting<T, Failure: Error>(
        _ location: ImageLocation, during work: () throws(Failure) -> T
    ) throws(Failure) -> T {
        let slot = slots.withLock { $0.take() }
        let offset = off_t(slot * Self.slotSize)
        let record = Self.record(of: location)
        // A note that cannot be written (a full disk) protects nothing, and stops nothing.
        _ = record.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) }
        defer {
            let none = [UInt8](repeating: 0, count: 4)
            _ = none.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset) }
            slots.withLock { $0.free.append(slot) }
        }
        return try marking(offset, work)
    }

    /// What the journals of dead processes hold: the decodes that ended those processes, marked
    /// by a fatal signal's handler (see `DecodeJournalFile+FatalSignals.swift`). The other notes
    /// of a dead process were decodes under way when something else ended it; those files are
    /// tried again.
    public struct Leftovers: Sendable {
        public var crashed: [ImageLocation] = []
        /// The journals read: removed by ``discard()`` once what they hold is kept elsewhere.
        var files: [FilePath] = []

        /// Removes the journals read.
        public func discard() {
            for file in files { unlink(file.string) }
        }
    }

    /// The journals in `directory` that no live process holds (their lock is free), read. Those
    /// of live processes are left alone; odd entries (links, FIFOs, folders) are passed over. A
    /// damaged journal yields the notes it holds whole.
    public static func leftovers(in directory: FilePath) -> Leftovers {
        guard let folder = opendir(directory.string) else { return Leftovers() }
        defer { closedir(folder) }
        var found = Leftovers()
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) {
                String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard !name.isEmpty, name.allSatisfy({ $0.isNumber || $0 == "-" }) else { continue }
            let file = directory.appending(name)
            // O_NONBLOCK: a FIFO planted here must not block the open.
            let descriptor = open(file.string, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
            guard descriptor >= 0 else { continue }
            defer { close(descriptor) }
            var info = stat()
            guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                flock(descriptor, LOCK_EX | LOCK_NB) == 0
            else { continue }
            found.crashed += notes(in: descriptor, size: Int(info.st_size))
            found.files.append(file)
        }
        return found
    }

    private static func record(of location: ImageLocation) -> [UInt8] {
        let root = Array(location.root.bytes.prefix(Int(PATH_MAX)))
        let relative = Array(location.relativePath.bytes.prefix(Int(PATH_MAX)))
        var writer = ByteWriter(capacity: headerSize + root.count + relative.count)
        writer.u32(magic)
        writer.u32(UInt32(root.count))
        writer.u32(UInt32(relative.count))
        let fingerprint = location.expectedFingerprint
        writer.u8(fingerprint == nil ? 0 : 1)
        writer.u64(fingerprint?.size ?? 0)
        writer.i64(fingerprint?.modificationTimeNanoseconds ?? 0)
        writer.raw(root)
        writer.raw(relative)
        return writer.bytes
    }

    /// The notes of a journal `size` bytes long, slot by slot.
    private static func notes(in descriptor: Int32, size: Int) -> [ImageLocation] {
        var found: [ImageLocation] = []
        var slot = [UInt8](repeating: 0, count: slotSize)
        for offset in stride(from: 0, to: min(size, 1 << 24), by: slotSize) {
            let got = slot.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, slotSize, off_t(offset)) }
            guard got >= headerSize else { break }
            if let location = slot.prefix(got).withUnsafeBytes({ location(decoding: $0) }) { found.append(location) }
        }
        return found
    }

    private static func location(decoding slot: UnsafeRawBufferPointer) -> ImageLocation? {
        var reader = ByteReader(slot, record: "decode journal")
        guard (try? reader.u32()) == crashedMagic, let rootCount = try? reader.u32(),
            let relativeCount = try? reader.u32(),
            let hasFingerprint = try? reader.u8(), let size = try? reader.u64(), let time = try? reader.i64(),
            rootCount > 0, relativeCount > 0, rootCount <= PATH_MAX, relativeCount <= PATH_MAX,
            let root = try? reader.bytes(Int(rootCount)), let relative = try? reader.bytes(Int(relativeCount))
        else { return nil }
        return ImageLocation(
            root: FilePath(bytes: root), relativePath: FilePath(bytes: relative),
            expectedFingerprint: hasFingerprint == 1
                ? FileFingerprint(size: size, modificationTimeNanoseconds: time) : nil)
    }
}
