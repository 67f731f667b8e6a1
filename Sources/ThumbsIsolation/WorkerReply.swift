import Foundation
import ThumbsCore
import ThumbsImaging
import ThumbsRendering

/// What a worker answers: the encoded results, or why the file failed.
package enum WorkerReply: Equatable {
    case thumbnails([Thumbnail])
    case preview(Thumbnail?)
    case inspection(Inspection)
    case failure(ImagingError)

    package func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: 64 << 10)
        switch self {
        case .thumbnails(let thumbnails):
            writer.u8(0)
            writer.count(thumbnails.count)
            for thumbnail in thumbnails { writer.thumbnail(thumbnail) }
        case .preview(let thumbnail):
            writer.u8(1)
            writer.bool(thumbnail != nil)
            if let thumbnail { writer.thumbnail(thumbnail) }
        case .inspection(let inspection):
            writer.u8(2)
            writer.u8(UInt8(MediaType.allCases.firstIndex(of: inspection.mediaType)!))
            writer.u64(inspection.fingerprint.size)
            writer.i64(inspection.fingerprint.modificationTimeNanoseconds)
            writer.bool(inspection.changedWhileRead)
            // The header's details are many optional fields, read rarely: JSON keeps them simple.
            writer.blob(inspection.properties.flatMap { try? JSONEncoder().encode($0) } ?? Data())
            writer.bool(inspection.problem != nil)
            if let problem = inspection.problem { writer.error(problem) }
        case .failure(let error):
            writer.u8(3)
            writer.error(error)
        }
        return writer.framed()
    }

    /// The reply in `bytes`, checked for shape: counts, lengths and values in range. What the
    /// results must be for the request is checked by ``ReplyCheck``.
    package init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        switch try reader.u8() {
        case 0:
            let count = try reader.count(atMost: WorkerRequest.maximumSpecs)
            var thumbnails: [Thumbnail] = []
            for _ in 0..<count { thumbnails.append(try reader.thumbnail()) }
            self = .thumbnails(thumbnails)
        case 1:
            self = .preview(try reader.bool() ? try reader.thumbnail() : nil)
        case 2:
            let mediaType = try reader.oneOf(MediaType.allCases)
            let fingerprint = FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())
            let changedWhileRead = try reader.bool()
            let json = try reader.blob(atMost: 1 << 20)
            var properties: ImageProperties?
            if !json.isEmpty {
                do { properties = try JSONDecoder().decode(ImageProperties.self, from: Data(json)) } catch {
                    throw .malformed("an image's properties: \(error)")
                }
            }
            let problem = try reader.bool() ? try reader.error() : nil
            self = .inspection(
                Inspection(
                    mediaType: mediaType, fingerprint: fingerprint, properties: properties, problem: problem,
                    changedWhileRead: changedWhileRead))
        case 3:
            self = .failure(try reader.error())
        case let other:
            throw .malformed("unknown reply \(other)")
        }
        guard reader.isAtEnd else { throw .malformed("bytes after a reply") }
    }
}
