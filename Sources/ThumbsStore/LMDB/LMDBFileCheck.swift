import CLMDB
import Glibc

/// Checks an LMDB data file's structure by reading it, before LMDB maps it.
///
/// LMDB trusts its file: it maps it and follows page numbers and offsets without bounds checks,
/// so a truncated file gets the process killed by SIGBUS on the first read past the end, and
/// garbage where a tree page should be by SIGSEGV. This check reads the file with `pread` and
/// bounds-checks everything it follows, so damage becomes a ``StoreError`` with
/// ``StoreError/damaged`` as its code instead of a signal.
///
/// ``Depth/opening`` runs at every open and reads a few pages: both meta pages (the newest
/// valid one is what LMDB would use), the file's size against the last page the meta page
/// names, the main tree (which holds only the named tables' records) and the root page of every
/// table. ``Depth/everyPage`` (`thumbs verify`) walks every tree page of every table and the
/// header of every overflow page: what LMDB could ever follow.
///
/// The layout is LMDB 0.9's on a 64-bit machine: a 16-byte page header, then the meta record
/// (magic, version, address, map size, the free and main tables, last page, transaction id) or
/// the node offsets of a tree page.
package struct LMDBFileCheck {
    package enum Depth { case opening, everyPage }

    private static let pageHeaderSize = 16
    private static let magic: UInt32 = 0xBEEF_C0DE
    private static let noPage = UInt64.max
    private static let branchFlag: UInt16 = 0x01, leafFlag: UInt16 = 0x02, overflowFlag: UInt16 = 0x04
    private static let metaFlag: UInt16 = 0x08
    private static let bigDataFlag: UInt16 = 0x01, subDatabaseFlag: UInt16 = 0x02, duplicatesFlag: UInt16 = 0x04
    /// LMDB trees are far shallower; a deeper one loops.
    private static let maximumDepth = 32

    private let descriptor: CInt
    private let fileName: String
    private let pageSize: Int
    private let lastPage: UInt64
    /// The free table's and the main table's root pages and depths, from the newest meta page.
    private let roots: [(root: UInt64, depth: Int)]
    private var visited: Set<UInt64> = []

    /// Checks the data file in `folder`; a missing or empty file (a new cache) passes. Returns
    /// the tree pages it read. A data or lock file that is not a regular file is damage.
    @discardableResult
    package static func check(folder: String, depth: Depth) throws(StoreError) -> Set<UInt64> {
        try requireRegularFileIfPresent(folder + "/lock.mdb")
        let fileName = folder + "/data.mdb"
        // Non-blocking: opening a FIFO to read would wait for a writer forever. The mode is
        // checked on the open descriptor, so a file swapped after a check by name is still seen.
        let descriptor = open(fileName, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            if code == ENOENT { return [] }
            // A socket cannot be opened at all: named as what it is rather than by the errno.
            try requireRegularFileIfPresent(fileName)
            throw StoreError(code: code, "open \(fileName)")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw StoreError(code: errno, "stat \(fileName)") }
        try requireRegularFile(info, fileName)
        guard info.st_size > 0 else { return [] }
        var check = try LMDBFileCheck(descriptor: descriptor, fileName: fileName, fileSize: Int64(info.st_size))
        try check.run(depth)
        return check.visited
    }

    private init(descriptor: CInt, fileName: String, fileSize: Int64) throws(StoreError) {
        self.descriptor = descriptor
        self.fileName = fileName
        // The page size is in the first meta page; both are read with it.
        let first = try Self.read(descriptor, at: 0, count: 4096, fileName)
        let size = Int(Self.u32(first, 40))
        guard size >= 512, size <= 65536, size & (size - 1) == 0 else {
            throw Self.damage("the first meta page names no valid page size", fileName)
        }
        pageSize = size
        let metaPages = [Array(first.prefix(size)), try Self.read(descriptor, at: Int64(size), count: size, fileName)]
        // LMDB refuses the whole file when either meta page lacks its flag, magic or version,
        // however valid the other one is.
        for (index, page) in metaPages.enumerated() where !Self.isMetaPage(page) {
            throw Self.damage("meta page \(index) is not an LMDB meta page (flag, magic or version)", fileName)
        }
        let metas = metaPages.enumerated().compactMap { index, page in
            Self.meta(page, number: UInt64(index), pageSize: size)
        }
        guard let newest = metas.max(by: { $0.transaction < $1.transaction }) else {
            throw Self.damage("neither meta page is valid", fileName)
        }
        lastPage = newest.lastPage
        // A damaged meta page can name any last page, up to 2^64 - 1: every step is checked.
        let pages = Int64(clamping: newest.lastPage).addingReportingOverflow(1)
        let needed = pages.partialValue.multipliedReportingOverflow(by: Int64(size))
        guard !pages.overflow, !needed.overflow else {
            throw Self.damage("the meta page names page \(newest.lastPage) as the last, past any file", fileName)
        }
        guard fileSize >= needed.partialValue else {
            throw Self.damage(
                "the file is \(fileSize) bytes but its last page ends at byte \(needed.partialValue): truncated",
                fileName)
        }
        roots = newest.roots
    }

    private mutating func run(_ depth: Depth) throws(StoreError) {
        let (free, main) = (roots[0], roots[1])
        try walk(free.root, levels: free.depth, recurseIntoTables: false, everyPage: depth == .everyPage)
        // The main tree holds the named tables' records: always walked, it is a page or two.
        var tables: [(root: UInt64, depth: Int)] = []
        try walk(main.root, levels: main.depth, recurseIntoTables: true, everyPage: true) { tables.append($0) }
        for table in tables {
            try walk(table.root, levels: table.depth, recurseIntoTables: false, everyPage: depth == .everyPage)
        }
    }

    /// Checks the tree under `root` (`levels` deep): its root page alone unless `everyPage`.
    private mutating func walk(
        _ root: UInt64, levels: Int, recurseIntoTables: Bool, everyPage: Bool,
        table: ((root: UInt64, depth: Int)) -> Void = { _ in }
    ) throws(StoreError) {
        guard root != Self.noPage else { return }
        guard levels >= 1, levels <= Self.maximumDepth else { throw damage("a table is \(levels) levels deep") }
        var pending: [(page: UInt64, level: Int)] = [(root, 1)]
        while let (number, level) = pending.popLast() {
            guard visited.insert(number).inserted else { throw damage("page \(number) is reached twice") }
            let page = try self.page(number)
            let flags = Self.u16(page, 10)
            let isLeaf = flags & Self.leafFlag != 0
            guard flags & (Self.branchFlag | Self.leafFlag) != 0, isLeaf == (level == levels) else {
                throw damage("page \(number) is not the tree page its parent says (flags \(flags))")
            }
            for node in try nodes(of: page, number: number) {
                if !isLeaf {
                    let child = UInt64(node.low) | UInt64(node.high) << 16 | UInt64(node.flags) << 32
                    guard child >= 2, child <= lastPage else { throw damage("page \(number) points to page \(child)") }
                    if everyPage { pending.append((child, level + 1)) }
                    continue
                }
                let dataSize = Int(node.low) | Int(node.high) << 16
                if node.flags & Self.subDatabaseFlag != 0, recurseIntoTables {
                    guard dataSize >= 48, node.dataOffset + 48 <= pageSize else {
                        throw damage("page \(number): bad table")
                    }
                    table((Self.u64(page, node.dataOffset + 40), Int(Self.u16(page, node.dataOffset + 6))))
                } else if node.flags & Self.bigDataFlag != 0 {
                    guard node.dataOffset + 8 <= pageSize else { throw damage("page \(number): node past the page") }
                    if everyPage { try checkOverflow(Self.u64(page, node.dataOffset), dataSize: dataSize) }
                } else if node.flags & Self.duplicatesFlag != 0 {
                    throw damage("page \(number) holds duplicate values, which no table of the cache has")
                } else {
                    guard node.dataOffset + dataSize <= pageSize else {
                        throw damage("page \(number): value past the page")
                    }
                }
            }
            if !everyPage { return }
        }
    }

    private struct Node {
        var low: UInt16, high: UInt16, flags: UInt16
        var dataOffset: Int
    }

    /// The nodes of a tree page, each checked to lie inside it.
    private func nodes(of page: [UInt8], number: UInt64) throws(StoreError) -> [Node] {
        let lower = Int(Self.u16(page, 12)), upper = Int(Self.u16(page, 14))
        guard lower >= Self.pageHeaderSize, lower <= upper, upper <= pageSize, lower % 2 == 0 else {
            throw damage("page \(number) has bounds \(lower)...\(upper)")
        }
        return try (0..<(lower - Self.pageHeaderSize) / 2).map { index throws(StoreError) in
            let offset = Int(Self.u16(page, Self.pageHeaderSize + 2 * index))
            guard offset >= upper, offset + 8 <= pageSize else { throw damage("page \(number): node at \(offset)") }
            let keySize = Int(Self.u16(page, offset + 6))
            guard offset + 8 + keySize <= pageSize else { throw damage("page \(number): key past the page") }
            return Node(
                low: Self.u16(page, offset), high: Self.u16(page, offset + 2), flags: Self.u16(page, offset + 4),
                dataOffset: offset + 8 + keySize)
        }
    }

    private func checkOverflow(_ number: UInt64, dataSize: Int) throws(StoreError) {
        guard number >= 2, number <= lastPage else { throw damage("a value is on page \(number)") }
        let header = try Self.read(descriptor, at: Int64(number) * Int64(pageSize), count: 16, fileName)
        let pages = UInt64(Self.u32(header, 12))
        guard Self.u64(header, 0) == number, Self.u16(header, 10) & Self.overflowFlag != 0, pages >= 1,
            number + pages - 1 <= lastPage, Int(pages) * pageSize - Self.pageHeaderSize >= dataSize
        else { throw damage("overflow page \(number) does not hold its value") }
    }

    private func page(_ number: UInt64) throws(StoreError) -> [UInt8] {
        guard number >= 2, number <= lastPage else { throw damage("page \(number) is past the last page") }
        let page = try Self.read(descriptor, at: Int64(number) * Int64(pageSize), count: pageSize, fileName)
        guard Self.u64(page, 0) == number else { throw damage("page \(number) says it is page \(Self.u64(page, 0))") }
        return page
    }

    private struct Meta {
        var transaction: UInt64
        var lastPage: UInt64
        var roots: [(root: UInt64, depth: Int)]
    }

    private static func isMetaPage(_ page: [UInt8]) -> Bool {
        page.count >= 160 && u16(page, 10) & metaFlag != 0 && u32(page, 16) == magic && u32(page, 20) == 1
    }

    private static func meta(_ page: [UInt8], number: UInt64, pageSize: Int) -> Meta? {
        guard isMetaPage(page), u64(page, 0) == number, Int(u32(page, 40)) == pageSize else { return nil }
        let lastPage = u64(page, 136)
        guard lastPage >= 1 else { return nil }
        return Meta(
            transaction: u64(page, 144), lastPage: lastPage,
            roots: [(u64(page, 80), Int(u16(page, 46))), (u64(page, 128), Int(u16(page, 94)))])
    }

    /// Refuses the file at `fileName` unless it is missing or a regular file (links followed,
    /// as LMDB follows them).
    private static func requireRegularFileIfPresent(_ fileName: String) throws(StoreError) {
        var info = stat()
        guard stat(fileName, &info) == 0 else {
            if errno == ENOENT { return }
            throw StoreError(code: errno, "stat \(fileName)")
        }
        try requireRegularFile(info, fileName)
    }

    /// A FIFO's open and reads wait for a writer, a device like `/dev/zero` reads without end
    /// and cannot hold a map LMDB shares between processes, a directory has no bytes: only a
    /// regular file is a cache's file.
    private static func requireRegularFile(_ info: stat, _ fileName: String) throws(StoreError) {
        let type = info.st_mode & S_IFMT
        guard type != S_IFREG else { return }
        let what =
            switch type {
            case S_IFIFO: "a FIFO"
            case S_IFCHR: "a character device"
            case S_IFBLK: "a block device"
            case S_IFSOCK: "a socket"
            case S_IFDIR: "a directory"
            default: "of file type \(type >> 12)"
            }
        throw damage("the file is \(what), not a regular file", fileName)
    }

    private func damage(_ what: String) -> StoreError { Self.damage(what, fileName) }

    private static func damage(_ what: String, _ fileName: String) -> StoreError {
        StoreError(resultCode: .corrupted, message: what, operation: "check \(fileName)")
    }

    private static func read(_ descriptor: CInt, at offset: Int64, count: Int, _ fileName: String) throws(StoreError)
        -> [UInt8]
    {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes {
                pread(descriptor, $0.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw StoreError(code: errno, "read \(fileName)") }
            guard got > 0 else { throw damage("the file ends inside page \(offset / Int64(max(1, count)))", fileName) }
            done += got
        }
        return bytes
    }

    private static func u16(_ bytes: [UInt8], _ offset: Int) -> UInt16 {
        UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    private static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        UInt32(u16(bytes, offset)) | UInt32(u16(bytes, offset + 2)) << 16
    }

    private static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64 {
        UInt64(u32(bytes, offset)) | UInt64(u32(bytes, offset + 4)) << 32
    }
}
