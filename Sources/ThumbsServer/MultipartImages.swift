import Hummingbird
import ThumbsCore
import ThumbsPipeline
import ThumbsSettings

/// Opportunistic delivery over plain HTTP: a `multipart/x-mixed-replace` body whose parts are
/// the images of one request, degraded first and final last. A browser shows each part in place
/// of the one before in a plain `<img>`, with no script.
enum MultipartImages {
    static let boundary = "thumbs-image"

    static var contentType: String { "multipart/x-mixed-replace; boundary=\(boundary)" }

    /// An answer whose first part is `first`; when that is a degraded image, `final` gives the
    /// last part, written as soon as it comes. `finished` runs once the body is done, with
    /// whether the final part was written; a body never written (its client gone before the
    /// answer started) is dropped without running it.
    static func response(
        first: ImageResult, headers: HTTPFields, finalFormat: ThumbnailFormat? = nil,
        final: (@Sendable () async throws -> ImageResult)? = nil,
        finished: @escaping @Sendable (Result<Void, any Error>) async -> Void = { _ in }
    ) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        guard first.isDegraded, let final, let finalFormat else {
            var buffer = ByteBuffer(string: "--\(boundary)\r\n")
            appendHead(of: first, to: &buffer)
            buffer.writeBytes(first.bytes)
            buffer.writeString(closing)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
        }
        // Only the final image is what the ETag names, and a stream is not worth caching.
        headers[.eTag] = nil
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            // The next part's head goes out with the stand-in: a browser shows a part once the
            // next one has begun, not when its own bytes are complete. The final part has no
            // length, then; its closing delimiter ends it.
            var buffer = ByteBuffer(string: "--\(boundary)\r\n")
            appendHead(of: first, to: &buffer)
            buffer.writeBytes(first.bytes)
            buffer.writeString("\r\n--\(boundary)\r\nContent-Type: \(finalFormat.mimeType)\r\n\r\n")
            do {
                try await writer.write(buffer)
                let image = try await final()
                buffer.clear()
                buffer.writeBytes(image.bytes)
                buffer.writeString(closing)
                try await writer.write(buffer)
                try await writer.finish(nil)
                await finished(.success(()))
            } catch {
                // The head is sent: all that is left is to end the body (a client that went
                // away makes writing throw, and nothing more is owed to it).
                try? await writer.finish(nil)
                await finished(.failure(error))
            }
        }
        return Response(status: .ok, headers: headers, body: body)
    }

    private static var closing: String { "\r\n--\(boundary)--\r\n" }

    private static func appendHead(of image: ImageResult, to buffer: inout ByteBuffer) {
        buffer.writeString("Content-Type: \(image.format.mimeType)\r\nContent-Length: \(image.bytes.count)\r\n\r\n")
    }
}
