import Foundation
import ThumbsCore
import ThumbsCoreTestSupport
@testable import ThumbsStore
import ThumbsSupport

/// Thumbnails and keys for store tests.
enum StoreFixtures {
    static let grid = RenditionSpec(size: PixelSize(width: 256, height: 256), contentMode: .aspectFill)
    static let preview = RenditionSpec(size: PixelSize(width: 1024, height: 1024))

    static func key(_ asset: String, version: Int64 = 1, rendition: RenditionSpec = grid) -> ThumbnailKey {
        ThumbnailKey(
            assetID: asset, fingerprint: FileFingerprint(size: 1000, modificationTimeNanoseconds: version),
            rendition: rendition)
    }

    /// `count` bytes, distinct per `seed`.
    static func thumbnail(_ seed: Int, count: Int = 20_000) -> Thumbnail {
        Thumbnail(
            bytes: (0..<count).map { UInt8(truncatingIfNeeded: seed &* 13 &+ $0) },
            pixelSize: PixelSize(width: 256, height: 256), format: .jpeg)
    }
}

/// A clock tests move by hand.
final class TestClock: Sendable {
    private let now = Locked(Date(timeIntervalSince1970: 1_800_000_000))

    var date: Date { now.value }
    func advance(seconds: TimeInterval) { now.withLock { $0 += seconds } }
}

extension StoreConfiguration {
    /// A configuration for a cache in `folder`, reading time from `clock`.
    static func testing(
        _ folder: TemporaryFolder, budget: Int64 = 1 << 30, clock: TestClock = TestClock(),
        initialMapSize: Int = 16 << 20
    ) -> StoreConfiguration {
        var configuration = StoreConfiguration(
            path: folder.path + "/cache", budget: ByteCount(budget),
            initialMapSize: initialMapSize)
        configuration.clock = { clock.date }
        return configuration
    }
}

/// A child forked from the test process that runs no program, so that it keeps a copy of every
/// descriptor the test had open (the close-on-exec ones too) until ``end()``.
struct ForkedChild {
    private let pid: pid_t
    private let release: Int32

    init() throws {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        let pid = fork()
        if pid == 0 {
            // Async-signal-safe calls only: the test process has other threads.
            close(ends[1])
            var byte: UInt8 = 0
            _ = read(ends[0], &byte, 1)
            _exit(0)
        }
        close(ends[0])
        guard pid > 0 else {
            close(ends[1])
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
        self.pid = pid
        release = ends[1]
    }

    /// Lets the child exit (its read of the pipe ends) and reaps it.
    func end() {
        close(release)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    }
}
