import Foundation
import Testing
import ThumbsCore
@testable import ThumbsImaging

@Suite struct ImagingConfigurationTests {
    /// A modification time may be any 64-bit value (a file dated 2300 wraps): never a trap.
    @Test func aFileSettlesFiveSecondsAfterItsLastChange() {
        let now = Int64(Date().timeIntervalSince1970 * 1e9)
        func settled(_ nanoseconds: Int64) -> Bool {
            ImagingConfiguration.hasSettled(FileFingerprint(size: 1, modificationTimeNanoseconds: nanoseconds))
        }
        #expect(settled(now - 3_600_000_000_000) && !settled(now) && !settled(now + 3_600_000_000_000))
        #expect(!settled(.min), "an age past 64 bits is none")
        #expect(!settled(.max))
        let truncated = ImagingError.truncated("premature end of JPEG file")
        let old = FileFingerprint(size: 1, modificationTimeNanoseconds: now - 3_600_000_000_000)
        let fresh = FileFingerprint(size: 1, modificationTimeNanoseconds: now)
        #expect(!ImagingConfiguration.failureMayPass(truncated, for: old), "damage: remembered")
        #expect(ImagingConfiguration.failureMayPass(truncated, for: fresh), "maybe a copy under way")
        #expect(!ImagingConfiguration.failureMayPass(.unsupportedFormat("text"), for: fresh))
        #expect(ImagingConfiguration.failureMayPass(.unreadable("EIO"), for: old))
    }

    @Test func workersAreOnePerCoreUnlessAskedFor() {
        let cores = min(ProcessInfo.processInfo.activeProcessorCount, ImagingConfiguration.maximumWorkers)
        var configuration = ImagingConfiguration()
        #expect(configuration.requestedWorkers == nil && configuration.workers == cores)
        configuration.workers = 3
        #expect(configuration.requestedWorkers == 3 && configuration.workers == 3)
        configuration.requestedWorkers = nil
        #expect(configuration.workers == cores, "asking for none is one per core again")
    }

    @Test func workersAreBroughtWithinTheirBounds() {
        #expect(ImagingConfiguration(workers: 0).workers == 1)
        #expect(ImagingConfiguration(workers: 100_000).requestedWorkers == ImagingConfiguration.maximumWorkers)
        var configuration = ImagingConfiguration()
        configuration.requestedWorkers = -2
        #expect(configuration.workers == 1)
    }
}
