import ArgumentParser
import Foundation
import Thumbs

struct MomentsCommand: AsyncParsableCommand, DecodesFiles {
    static let configuration = CommandConfiguration(
        commandName: "moments",
        abstract: "List the library by day, newest first, with counts.",
        discussion: """
            Days are the local calendar day each photo was taken (EXIF DateTimeOriginal as the \
            camera wrote it), else the day its file was last modified.

            Example:
              thumbs moments ~/Pictures
            """)

    @OptionGroup var library: LibraryOptions

    func run() async throws {
        let photoLibrary = try await library.open().library
        var latest = Moments()
        for try await snapshot in photoLibrary.moments() { latest = snapshot }
        let days = latest.sections.map { moment in
            DaySummary(
                day: moment.day.description, photos: moment.items.filter { !$0.isVideo }.count,
                videos: moment.items.filter(\.isVideo).count)
        }
        if library.json { return try library.printJSON(days) }
        print(
            TextTable.render(
                header: ["day", "photos", "videos"],
                rows: days.map { [$0.day, "\($0.photos)", "\($0.videos)"] }))
        print("\(latest.assetCount) assets on \(days.count) days")
    }
}
