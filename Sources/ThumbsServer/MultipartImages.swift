import Hummingbird
import Thumbs

/// Opportunistic delivery over plain HTTP: a `multipart/x-mixed-replace` body whose parts are
/// the images of one request, degraded first and final last. A browser shows each part in place
/// of the one before in a plain `<img>`, with no script.
enum MultipartImages {
    static let boundary = "thumbs-image"

    static var contentType: String { "multipart/x-mixed-replace; boundary=\(boundary)" }

    /// An answer whose first part is `first`; when that is a degraded image, `final` gives the
    /// last part, written as soon as it comes. `finished` runs once the body is done, with
    /// whether the final part was written.
    static func response(
        first: ImageResult, headers: HTTPFields,
        final: (@Sendable () async throws -> ImageResult)? = nil,
        finished: @escaping @Sendable (Result<Void, any Error>) async -> Void = { _ in }
    ) -> Response {
        var headers = headers
        headers[.contentType] = contentType
        guard first.isDegraded, let final else {
            var buffer = ByteBuffer(string: "--\(boundary)\r\n")
            append(first, last: true, to: &buffer)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: buffer))
        }
        // Only the final image is what the ETag names, and a stream is not worth caching.
        headers[.eTag] = nil
        headers[.cacheControl] = "no-store"
        let body = ResponseBody { writer in
            var buffer = ByteBuffer(string: "--\(boundary)\r\n")
            append(first, last: false, to: &buffer)
            do {
                try await writer.write(buffer)
                let image = try await final()
                buffer.clear()
                append(image, last: true, to: &buffer)
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

    /// One part: its headers, the image, and the delimiter after it (closing, for the last),
    /// which tells the browser the part is complete so that it shows it at once.
    private static func append(_ image: ImageResult, last: Bool, to buffer: inout ByteBuffer) {
        buffer.writeString("Content-Type: \(image.format.mimeType)\r\nContent-Length: \(image.bytes.count)\r\n\r\n")
        buffer.writeBytes(image.bytes)
        buffer.writeString(last ? "\r\n--\(boundary)--\r\n" : "\r\n--\(boundary)\r\n")
    }
}
