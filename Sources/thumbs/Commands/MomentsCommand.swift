import ArgumentParser
import Foundation
import Thumbs

struct MomentsCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "moments",
        abstract: "List the library by day, newest first, with counts.",
        discussion: """
            Days are the local calendar day each photo was taken (EXIF DateTimeOriginal as the \
            camera wrote it), else the day its file was last modified. They come from the \
            catalog the last `thumbs warm` (or a running watch) kept in the cache, at once; \
            without one (or with --walk), from a walk of the library.

            Example:
              thumbs moments ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    @Flag(help: "Walk the library instead of reading the catalog the last warm or watch kept of it.")
    var walk = false

    func run() async throws {
        let photoLibrary = try await library.open().library
        let days: [DaySummary]
        if !walk, let catalog = try library.catalog(of: photoLibrary) {
            days = try catalog.moments(roots: photoLibrary.roots).map {
                DaySummary(day: $0.day.description, photos: $0.photos, videos: $0.videos)
            }
        } else {
            var latest = Moments()
            for try await snapshot in photoLibrary.moments() { latest = snapshot }
            days = latest.sections.map { moment in
                DaySummary(
                    day: moment.day.description, photos: moment.items.filter { !$0.isVideo }.count,
                    videos: moment.items.filter(\.isVideo).count)
            }
        }
        if library.json { return try library.printJSON(days) }
        print(
            TextTable.render(
                header: ["day", "photos", "videos"],
                rows: days.map { [$0.day, "\($0.photos)", "\($0.videos)"] }))
        print("\(days.reduce(0) { $0 + $1.photos + $1.videos }) assets on \(days.count) days")
    }
}
