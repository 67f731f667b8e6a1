import Testing
import ThumbsCore
import ThumbsImaging
@testable import ThumbsIsolation
import ThumbsRendering

/// A worker's settings, through the first message it is sent.
@Suite struct WorkerSettingsTests {
    let settings = WorkerSettings(sharing: ImagingConfiguration(workers: 2))

    /// What the worker reads of a message (its payload, after the length).
    private func received(_ message: [UInt8]) -> WorkerSettings? {
        WorkerSettings(decoding: Array(message.dropFirst(WireWriter.headerSize)))
    }

    @Test func travelWholeInTheWireFormat() throws {
        #expect(received(settings.encoded()) == settings)
        let opening = settings.opening([.ffmpeg, .libRaw])
        #expect(opening.libraries == [.ffmpeg, .libRaw])
        #expect(received(opening.encoded()) == opening)
    }

    /// The decode budget is one quantity from the configuration to the worker: a byte count,
    /// shared among the workers, never below the smallest share unless the whole budget is.
    @Test func eachWorkerGetsItsShareOfTheBudget() {
        var configuration = ImagingConfiguration(workers: 2)
        configuration.decodeMemoryBudget = ByteCount(4 << 30)
        #expect(WorkerSettings(sharing: configuration).decodeMemoryBudget == ByteCount(2 << 30))
        configuration.decodeMemoryBudget = ByteCount(600 << 20)
        #expect(WorkerSettings(sharing: configuration).decodeMemoryBudget == WorkerSettings.smallestShare)
        configuration.decodeMemoryBudget = ImagingConfiguration.minimumDecodeMemoryBudget
        #expect(WorkerSettings(sharing: configuration).decodeMemoryBudget == configuration.decodeMemoryBudget)
    }

    /// A worker for JPEGs opens nothing: libjpeg-turbo is linked at start.
    @Test func aWorkerOpensWhatItIsToldOnly() {
        #expect(settings.libraries.isEmpty)
        #expect(settings.opening([.libvips]).libraries == [.libvips])
    }

    @Test func anUnknownLibraryOrABadLimitIsRefused() {
        var writer = WireWriter()
        writer.u64(100)
        writer.i64(1 << 30)
        writer.u64(1000)
        writer.count(1)
        writer.string("libmagick")
        #expect(received(writer.framed()) == nil)
        var zero = WireWriter()
        zero.u64(0)
        zero.i64(1 << 30)
        zero.u64(1000)
        zero.count(0)
        #expect(received(zero.framed()) == nil, "a pixel limit of 0")
        #expect(received(Array(settings.encoded().dropLast(3))) == nil, "a message cut short")
    }
}
