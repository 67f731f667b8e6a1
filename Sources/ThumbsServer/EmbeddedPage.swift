import Hummingbird

/// The grid page: four files kept in `Page/` and compiled into the binary, so the server needs
/// nothing beside itself and never reads a file to answer a request.
enum EmbeddedPage {
    static let files: [String: (contentType: String, bytes: [UInt8])] = [
        "/": ("text/html; charset=utf-8", PackageResources.index_html),
        "/page.css": ("text/css; charset=utf-8", PackageResources.page_css),
        "/page.js": ("text/javascript; charset=utf-8", PackageResources.page_js),
        "/thumbhash.js": ("text/javascript; charset=utf-8", PackageResources.thumbhash_js),
    ]

    static func response(for path: String) -> Response? {
        guard let file = files[path] else { return nil }
        return Response(
            status: .ok,
            headers: [
                .contentType: file.contentType, .cacheControl: "no-cache",
                .contentSecurityPolicy:
                    "default-src 'self'; img-src 'self' data: blob:; style-src 'self'; script-src 'self'",
                .xContentTypeOptions: "nosniff",
            ],
            body: .init(byteBuffer: ByteBuffer(bytes: file.bytes)))
    }
}
