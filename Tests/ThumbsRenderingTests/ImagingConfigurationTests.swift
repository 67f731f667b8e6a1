import Foundation
import Testing
import ThumbsCore
import ThumbsRendering

@Suite struct ImagingConfigurationTests {
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
