import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's core, who is asking (the address preheating is
/// kept under when the client does not name itself), and when its answer ends, for the metrics.
package struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    /// Set by ``ServerMiddleware``: a handler whose body is written after it returns passes the
    /// body through ``ResponseTiming/streamed(_:)``.
    var timing: ResponseTiming?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
