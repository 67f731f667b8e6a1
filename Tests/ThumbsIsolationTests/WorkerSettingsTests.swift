import Testing
import ThumbsImaging
import ThumbsIsolation
import ThumbsRendering

/// A worker's settings, through the command line it is started with.
@Suite struct WorkerSettingsTests {
    let settings = WorkerSettings(sharing: ImagingConfiguration(workers: 2))

    @Test func travelWholeThroughTheArguments() throws {
        #expect(WorkerSettings(arguments: settings.arguments) == settings)
        let opening = settings.opening([.ffmpeg, .libRaw])
        #expect(opening.libraries == [.libvips, .ffmpeg, .libRaw])
        #expect(WorkerSettings(arguments: opening.arguments) == opening)
    }

    @Test func libvipsIsAlwaysOpened() {
        #expect(settings.libraries == [.libvips])
        #expect(settings.opening([]).libraries == [.libvips])
    }

    @Test func anUnknownLibraryIsRefused() {
        var arguments = settings.arguments
        arguments[arguments.firstIndex(of: "--libraries")! + 1] = "libvips,libmagick"
        #expect(WorkerSettings(arguments: arguments) == nil)
    }
}
