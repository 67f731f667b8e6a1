import Foundation
import Testing
import ThumbsCore
import ThumbsImaging

/// The real photos in ../shared/photos, described by its MANIFEST.tsv.
///
/// Tests that need them are disabled, with this reason shown, when the folder is absent.
package enum SharedPhotos {
    package static let skipReason: Comment = "../shared/photos is absent: tests on real photos skipped"

    /// `$THUMBS_SHARED_PHOTOS`, else ../shared/photos beside the repository.
    package static let root: URL =
        ProcessInfo.processInfo.environment["THUMBS_SHARED_PHOTOS"]
        .map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // …/Tests/ThumbsTestSupport
        .deletingLastPathComponent()  // …/Tests
        .deletingLastPathComponent()  // the repository
        .deletingLastPathComponent()  // the folder holding it and shared/
        .appendingPathComponent("shared/photos")

    package static var isPresent: Bool {
        FileManager.default.fileExists(atPath: root.appendingPathComponent("MANIFEST.tsv").path)
    }

    package struct Entry: Sendable, CustomStringConvertible {
        package let relativePath: String
        package let notes: [String: String]
        package let rawNotes: String

        package var path: String { SharedPhotos.root.appendingPathComponent(relativePath).path }

        /// A note's value without its parenthesised comment: "empty (zero-byte file)" → "empty".
        package func note(_ key: String) -> String? {
            notes[key].flatMap { $0.split(separator: " ").first.map(String.init) }
        }
        package var description: String { relativePath }

        /// The file's size on disk.
        package var fileSize: Int {
            (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
        }

        /// Whether the file is damaged part of the way in (truncated, or bad entropy-coded
        /// data) and its loader gives what decoded (libvips' JPEG, PNG and GIF loaders): long
        /// settled, it renders as a partial thumbnail.
        package var rendersPartially: Bool {
            ["truncated", "bad-entropy-data"].contains(note("corrupt") ?? "")
                && ["jpegload", "pngload", "gifload"].contains(notes["loader"] ?? "")
        }

        /// The error kind MANIFEST.tsv's notes call for, or nil when the file must render.
        package var expectedError: ImagingError.Kind? {
            guard !rendersPartially else { return nil }
            switch note("corrupt") {
            case "truncated": return .truncated
            case "empty": return .emptyFile
            case "not-an-image": return .unsupportedFormat
            case "fuzzed", "bad-entropy-data": return .corrupt
            default: break
            }
            if note("vips_unsupported") == "yes" { return .unsupportedFormat }
            return note("decode") == "error" ? .corrupt : nil
        }

        /// Width x height as libvips reports them (stored, before EXIF orientation).
        package var vipsSize: (width: Int, height: Int)? {
            guard let first = rawNotes.split(separator: ";").first else { return nil }
            let parts = first.split(separator: "x").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            return parts.count == 2 && parts[0] > 0 ? (parts[0], parts[1]) : nil
        }
    }

    /// Every file listed in MANIFEST.tsv (empty when the folder is absent).
    package static let entries: [Entry] = {
        guard let text = try? String(contentsOf: root.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        else { return [] }
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let columns = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard columns.count >= 7 else { return nil }
            var notes: [String: String] = [:]
            for item in columns[6].split(separator: ";") {
                let pair = item.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                if pair.count == 2 { notes[pair[0]] = pair[1] }
            }
            return Entry(relativePath: columns[0], notes: notes, rawNotes: columns[6])
        }
    }()
}
