import Foundation
import Thumbs

/// What `thumbs render` did. As JSON (its `summary` event, docs/EVENTS.md): `photos`,
/// `rendered`, `thumbnails`, `bytes`, `failed`, `unwritten`, `seconds` (to a hundredth) and
/// `failuresByKind`, by kind name.
struct RenderSummary: Encodable, CustomStringConvertible {
    /// The warm of the files into the output folder.
    var progress: WarmJob.Progress
    /// Thumbnails made per photo rendered.
    var renditions: Int
    /// Photos whose thumbnails could not be written.
    var unwritten: Int

    var files: Int { progress.done }
    var failed: Int { progress.failed }
    var thumbnails: Int { progress.rendered * renditions }

    private enum CodingKeys: String, CodingKey {
        case photos, rendered, thumbnails, bytes, failed, unwritten, seconds, failuresByKind
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(files, forKey: .photos)
        try container.encode(files - failed, forKey: .rendered)
        try container.encode(thumbnails, forKey: .thumbnails)
        try container.encode(progress.bytesWritten, forKey: .bytes)
        try container.encode(failed, forKey: .failed)
        try container.encode(unwritten, forKey: .unwritten)
        try container.encode((progress.elapsed.seconds * 100).rounded() / 100, forKey: .seconds)
        try container.encode(progress.failuresByKind.byName, forKey: .failuresByKind)
    }

    var description: String {
        var text = String(
            format: "rendered %d of %d files (%d thumbnails, %d bytes) in %.2f s",
            files - failed, files, thumbnails, progress.bytesWritten, progress.elapsed.seconds)
        if failed > 0 {
            let kinds = progress.failuresByKind.sorted { $0.key.rawValue < $1.key.rawValue }
                .map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", ")
            text += "; \(failed) failed (\(kinds))"
        }
        if unwritten > 0 { text += "; \(unwritten) could not be written" }
        return text
    }
}
