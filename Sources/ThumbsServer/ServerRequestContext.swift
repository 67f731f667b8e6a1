import Hummingbird
import NIOCore

/// The context of every request: Hummingbird's core, and who is asking (the address preheating
/// is kept under when the client does not name itself).
package struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
