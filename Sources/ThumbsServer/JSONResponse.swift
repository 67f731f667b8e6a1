import Foundation
import Hummingbird
import ThumbsSupport

/// Every JSON answer, listings and errors alike: UTF-8, never cached (it describes the library
/// now), slashes left as they are (names hold them).
enum JSONResponse {
    static func make(
        _ value: some Encodable, status: HTTPResponse.Status = .ok, headers: HTTPFields = [:]
    ) throws -> Response {
        let encoder = JSONEncoder(style: .line)
        var fields = headers
        fields[.contentType] = "application/json; charset=utf-8"
        fields[.cacheControl] = "no-store"
        return Response(
            status: status, headers: fields, body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }
}
