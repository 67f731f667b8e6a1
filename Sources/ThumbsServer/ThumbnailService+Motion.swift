import Hummingbird
import HummingbirdCore
import ThumbsSettings
import ThumbsSupport

extension ThumbnailService {
    /// How much of a movie one read gives the response body.
    static let motionChunkSize = 256 << 10

    /// `GET /api/assets/{id}/motion`: a Live Photo's or a motion photo's movie, whole or the one
    /// byte range asked for (what a `<video>` element asks while it plays and seeks), so that a
    /// gallery can play it on hover.
    func motion(_ request: Request, context: ServerRequestContext) async throws -> Response {
        let asset = try asset(context.parameters.get("id"))
        let movie = try await fileReads.run { () throws -> MotionMovieFile in try MotionMovieFile.open(asset) }
        let tag = "\"\(movie.version)\""
        var headers: HTTPFields = [.contentType: movie.contentType, .acceptRanges: "bytes", .eTag: tag]
        if request.headers[values: .ifNoneMatch].contains(tag) {
            return Response(status: .notModified, headers: headers)
        }
        // A range applies to the movie the client has: after a change, If-Range gets it whole.
        let rangeField = request.headers[.ifRange].map { $0 == tag } ?? true ? request.headers[.range] : nil
        let range: ClosedRange<UInt64>
        switch ByteRangeRequest(rangeField, length: movie.length) {
        case .unsatisfiable:
            headers[.contentRange] = "bytes */\(movie.length)"
            return Response(status: .rangeNotSatisfiable, headers: headers)
        case .part(let part):
            range = part
            headers[.contentRange] = "bytes \(part.lowerBound)-\(part.upperBound)/\(movie.length)"
        case .whole:
            guard movie.length > 0 else { return Response(status: .ok, headers: headers) }
            range = 0...(movie.length - 1)
        }
        let status: HTTPResponse.Status = headers[.contentRange] == nil ? .ok : .partialContent
        let body = body(of: movie, range)
        return Response(status: status, headers: headers, body: context.timing?.streamed(body) ?? body)
    }

    /// Reads `range` of `movie` a chunk at a time on the file-reading threads, each chunk written
    /// before the next is read: a slow client holds one chunk, whatever the movie's size.
    private func body(of movie: MotionMovieFile, _ range: ClosedRange<UInt64>) -> ResponseBody {
        let fileReads = fileReads
        return ResponseBody(contentLength: Int(range.upperBound - range.lowerBound + 1)) { writer in
            var position = range.lowerBound
            while position <= range.upperBound {
                let count = Int(min(UInt64(Self.motionChunkSize), range.upperBound - position + 1))
                let at = position
                let bytes = try await fileReads.run { () throws -> [UInt8] in try movie.read(at: at, count: count) }
                // The file shrank under the answer: failing the body closes the connection, as a
                // body shorter than its Content-Length must.
                guard !bytes.isEmpty else {
                    throw APIError(
                        status: .conflict, kind: "changed", message: "the movie changed while it was sent")
                }
                try await writer.write(ByteBuffer(bytes: bytes))
                position += UInt64(bytes.count)
            }
            try await writer.finish(nil)
        }
    }
}
