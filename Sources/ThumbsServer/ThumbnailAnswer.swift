import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ThumbsCore
import ThumbsPipeline
import ThumbsSettings

/// A thumbnail URL's answer that carries one image or none: the image (200), a stand-in for it
/// (`delivery=fast` before the final image exists), or nothing when the client's copy is current
/// (304). Both ways thumbnails are answered make their answers here, Hummingbird's route
/// (``ThumbnailService/thumbnail(_:context:)``) and ``MemoryHitHandler`` on the event loop, so
/// that they give the same fields in the same order, decide a 304 alike and count alike; the
/// route hands Hummingbird its ``response``, the handler writes its ``encodedHead()`` and body.
struct ThumbnailAnswer: Sendable {
    /// What every answer for one thumbnail URL carries (its ETag, `Vary` and Cache-Control), and
    /// when the client's copy is current.
    struct Validators: Sendable, Equatable {
        var etag: String
        var cacheControl: String
        /// Whether an If-None-Match naming ``etag`` makes a 304: not with `delivery=fast`, which
        /// asks for whatever image is at hand.
        var revalidates: Bool

        /// The validators of `version` of an asset's rendition named by `tag` (its
        /// ``/ThumbsCore/RenditionSpec/storageTag``), asked for as `versionInURL` (the URL's
        /// `v`) with `delivery`.
        init(version: String, tag: String, versionInURL: Substring?, delivery: DeliveryMode) {
            etag = "\"\(version)-\(tag)\""
            // The URL names this content when it carries its version: then it never changes.
            cacheControl = versionInURL == version[...] ? "public, max-age=31536000, immutable" : "no-cache"
            revalidates = delivery != .fastFormat
        }

        /// Whether the client's copy, named in `ifNoneMatch` (the field's values), is current.
        func isCurrent(ifNoneMatch: some Sequence<String>) -> Bool {
            revalidates && ifNoneMatch.contains { Self.matches($0, etag) }
        }

        /// The fields every answer for the URL carries, in the order they are written.
        var fields: HTTPFields {
            [.eTag: etag, .vary: ThumbnailAnswer.vary, .cacheControl: cacheControl]
        }

        /// Whether an `If-None-Match` list names `etag` (or is `*`).
        static func matches(_ list: String, _ etag: String) -> Bool {
            list.split(separator: ",").contains { candidate in
                let tag = candidate.trimmingCharacters(in: .whitespaces)
                return tag == "*" || tag == etag || tag == "W/" + etag
            }
        }
    }

    var status: HTTPResponse.Status
    var fields: HTTPFields
    /// The image; nil for a 304.
    var body: ByteBuffer?
    /// The tier counted in `thumbs_thumbnails_total` (``ServerMetrics/count(_:)``) each time the
    /// answer is given; nil for a 304, which carries no thumbnail.
    var tier: ServerMetrics.Tier?

    /// The 304 to a client whose copy is current.
    static func notModified(_ validators: Validators) -> ThumbnailAnswer {
        ThumbnailAnswer(status: .notModified, fields: validators.fields, body: nil, tier: nil)
    }

    /// The 200 with the URL's own image, which came from `tier`.
    static func image(
        _ bytes: [UInt8], format: ThumbnailFormat, from tier: ServerMetrics.Tier, validators: Validators
    ) -> ThumbnailAnswer {
        var fields = validators.fields
        fields[.contentType] = format.mimeType
        fields[.contentLength] = String(bytes.count)
        fields.describeHeadroom(of: bytes, format: format)
        return ThumbnailAnswer(status: .ok, fields: fields, body: ByteBuffer(bytes: bytes), tier: tier)
    }

    /// The 200 with a stand-in for the URL's image (`delivery=fast`): a nearby rendition or the
    /// embedded preview. It is not what the ETag names, so it carries none, and is not kept.
    static func standIn(_ bytes: [UInt8], format: ThumbnailFormat) -> ThumbnailAnswer {
        var fields: HTTPFields = [
            .vary: vary, .cacheControl: "no-store", degradedField: "1", .contentType: format.mimeType,
            .contentLength: String(bytes.count),
        ]
        fields.describeHeadroom(of: bytes, format: format)
        return ThumbnailAnswer(status: .ok, fields: fields, body: ByteBuffer(bytes: bytes), tier: .degraded)
    }

    /// Answers differ by who asks (a token may be required).
    static let vary = "Authorization, Cookie"

    /// Header field saying a `fast` answer is a stand-in.
    static let degradedField = HTTPField.Name("X-Thumbs-Degraded")!

    /// Header field giving an Ultra HDR JPEG's headroom: how many stops above SDR white its
    /// gain map restores at most, for a client that sizes its HDR display by it.
    static let headroomField = HTTPField.Name("X-Thumbs-HDR-Headroom")!

    /// The answer as Hummingbird writes it (a HEAD keeps the fields and drops the body).
    var response: Response {
        Response(status: status, headers: fields, body: body.map { ResponseBody(byteBuffer: $0) } ?? ResponseBody())
    }

    /// The status line and fields as HTTP/1.1 writes them, names as given, without the empty
    /// line that ends them: the fields that change with the second or the connection follow
    /// (``ResponseFieldsEnd``).
    func encodedHead() -> ByteBuffer {
        var text = "HTTP/1.1 \(status.code) \(status.reasonPhrase)\r\n"
        for field in fields { text += "\(field.name.rawName): \(field.value)\r\n" }
        return ByteBuffer(string: text)
    }
}

extension HTTPFields {
    /// ``ThumbnailAnswer/headroomField`` when `bytes` are an Ultra HDR JPEG.
    fileprivate mutating func describeHeadroom(of bytes: [UInt8], format: ThumbnailFormat) {
        guard format == .jpeg, let stops = UltraHDRJPEG.headroom(of: bytes) else { return }
        self[ThumbnailAnswer.headroomField] = String(format: "%.3g", stops)
    }
}
