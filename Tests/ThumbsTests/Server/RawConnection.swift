import Foundation
import Glibc

/// A plain TCP connection to the server, for what an HTTP client library will not send: a
/// request trickled byte by byte, oversized heads, many requests at once. Blocking calls with
/// timeouts, run off the cooperative pool.
struct RawConnection: Sendable {
    let port: Int

    /// Sends `chunks` with `pause` between them, then reads until the server closes or
    /// `timeout` passes. Returns what was read (as text, and as bytes) and whether the server
    /// closed the connection.
    func exchange(
        _ chunks: [[UInt8]], pause: Duration = .zero, timeout: Double = 10
    ) async throws -> (response: String, bytes: [UInt8], closed: Bool) {
        let (bytes, closed) = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try exchangeBlocking(chunks, pause: pause, timeout: timeout) })
            }
        }
        return (String(decoding: bytes, as: UTF8.self), bytes, closed)
    }

    func request(_ text: String, timeout: Double = 30) async throws -> String {
        try await exchange([Array(text.utf8)], timeout: timeout).response
    }

    /// Sends each of `requests` on a connection of its own and resets that connection at once
    /// (closed with a zero linger: the server reads the request, then a reset), as a client
    /// that gives up on what it asked for does. Returns once every request is sent.
    func sendAndReset(_ requests: [String]) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        for request in requests {
                            let socket = try connected()
                            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                            setsockopt(socket, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<linger>.size))
                            _ = Array(request.utf8).withUnsafeBytes {
                                send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL))
                            }
                            close(socket)
                        }
                    })
            }
        }
    }

    /// A socket connected to the server.
    private func connected() throws -> Int32 {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(socket)
            throw POSIXError(.ECONNREFUSED)
        }
        return socket
    }

    private func exchangeBlocking(_ chunks: [[UInt8]], pause: Duration, timeout: Double) throws -> ([UInt8], Bool) {
        let socket = try connected()
        defer { close(socket) }
        var closed = false
        for (index, chunk) in chunks.enumerated() {
            if index > 0, pause > .zero { Thread.sleep(forTimeInterval: pause.seconds) }
            if chunk.withUnsafeBytes({ send(socket, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) < 0 {
                closed = true
                break
            }
        }
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while !closed, Date() < deadline {
            var descriptor = pollfd(fd: socket, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
            if ready <= 0 { break }
            let count = recv(socket, &buffer, buffer.count, 0)
            if count <= 0 {
                closed = true
                break
            }
            received += buffer[0..<count]
        }
        return (received, closed)
    }
}

extension Duration {
    fileprivate var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
