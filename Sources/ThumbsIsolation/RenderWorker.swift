import CRenderSandbox
import Glibc
import SystemPackage
import ThumbsCore
import ThumbsImaging
import ThumbsSupport

/// One worker process, seen from its renderer: started, asked one thing at a time over its
/// socket, and killed when it overstays or breaks the protocol.
///
/// Every call blocks (the renderer's render threads make them, never a cooperative thread), and
/// one thread at a time uses a worker: its slot's lock is held across each call.
package final class RenderWorker: Sendable {
    package let pid: pid_t
    /// The renderer's end of the worker's socket (the worker has the other at descriptor 3).
    private let socket: Int32
    /// Readable once the worker has exited (`thumbs_pidfd_open`); -1 where the kernel has no
    /// pidfd, and the socket's closing alone then says so.
    private let exit: Int32

    /// The socket is made non-blocking: a worker that stops reading its requests fills its
    /// buffer, and a send then fails at once instead of holding a render thread for good.
    private init(pid: pid_t, socket: Int32) {
        self.pid = pid
        self.socket = socket
        exit = thumbs_pidfd_open(pid)
        _ = fcntl(socket, F_SETFL, fcntl(socket, F_GETFL) | O_NONBLOCK)
    }

    deinit {
        close(socket)
        if exit >= 0 { close(exit) }
    }

    /// Starts `executable`, connected by a new socket pair, and sends it its `settings`.
    package static func start(executable: FilePath, settings: WorkerSettings) throws(ImagingError) -> RenderWorker {
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            throw .libraryUnavailable("no socket for a render worker: " + SystemError.describe(errno))
        }
        defer { close(ends[1]) }
        let pid = withCStrings([executable.string]) { argv in
            executable.withPlatformString { thumbs_spawn_worker($0, argv, environ, ends[1]) }
        }
        guard pid > 0 else {
            close(ends[0])
            throw .libraryUnavailable(
                "the render worker \(executable) could not start: " + SystemError.describe(-pid))
        }
        return try RenderWorker(pid: pid, socket: ends[0]).sending(settings, "the render worker \(executable)")
    }

    /// Takes over the worker ``PrestartedWorker`` forked, handing it its `settings`.
    static func adopt(pid: pid_t, socket: Int32, settings: WorkerSettings) throws(ImagingError) -> RenderWorker {
        try RenderWorker(pid: pid, socket: socket).sending(settings, "the prestarted render worker")
    }

    /// This worker, once it has been sent `settings`, its first message; stopped when it cannot
    /// take them.
    private func sending(_ settings: WorkerSettings, _ worker: String) throws(ImagingError) -> RenderWorker {
        let message = settings.encoded()
        let sent = message.withUnsafeBytes { thumbs_send_with_descriptor(socket, $0.baseAddress, $0.count, -1) }
        guard sent == message.count else {
            stop()
            throw .libraryUnavailable("\(worker) is gone")
        }
        return self
    }

    /// Waits for the worker's greeting, which it sends once it is confined and ready.
    package func greeting(within limit: Duration) throws(WorkerDeath) -> WorkerConfinement {
        let deadline = SuspendingClock.now + limit
        let frame = try receiveFrame(until: deadline, limit: limit, largest: WorkerGreeting.size)
        do {
            return try WorkerGreeting(decoding: frame).confinement
        } catch {
            throw end(.crashed, reason: "\(error)")
        }
    }

    /// Hands `request` and the open file `descriptor` to the worker and waits for its reply, at
    /// most `limit` once the worker has the file. A worker that dies, overstays or answers
    /// malformed bytes is ended, and the death says what the file failed with.
    /// A reply longer than `largestReply` bytes is refused before it is read.
    package func perform(
        _ request: WorkerRequest, file descriptor: Int32, limit: Duration, largestReply: Int
    ) throws(WorkerDeath) -> WorkerReply {
        let message = request.encoded()
        let sent = message.withUnsafeBytes { thumbs_send_with_descriptor(socket, $0.baseAddress, $0.count, descriptor) }
        // A worker that died before the request reached it (killed while idle) costs the file
        // nothing: the file is tried again on a new worker.
        guard sent == message.count else { throw end(nil, reason: "the request was not delivered") }
        let deadline = SuspendingClock.now + limit
        // The worker acknowledges a request as it takes it; a death before that is not the file's.
        // Anything else first (a fatal-signal report of a thread that died after the last reply)
        // comes from a worker that was broken before it had this file.
        let acknowledgement = try receive(count: 1, until: deadline, limit: limit, fileTaken: false)
        guard acknowledgement == [Self.acknowledgement] else { throw end(nil, reason: "no acknowledgement") }
        let frame = try receiveFrame(until: deadline, limit: limit, largest: largestReply)
        do {
            return try WorkerReply(decoding: frame)
        } catch {
            throw end(.crashed, reason: "\(error)")
        }
    }

    /// Kills the worker and reaps it.
    package func stop() {
        kill(pid, SIGKILL)
        _ = reap()
    }

    /// The byte a worker sends as it takes a request.
    static let acknowledgement: UInt8 = 0x06

    /// The length of a fatal-signal report (`thumbs_report_fatal_signals`): one byte saying how
    /// the worker dies. No other message is that short.
    static let deathReportLength = 1

    /// The next message, of at most `largest` bytes (a death report's length excepted).
    private func receiveFrame(
        until deadline: SuspendingClock.Instant, limit: Duration, largest: Int
    ) throws(WorkerDeath) -> [UInt8] {
        let header = try receive(count: WireWriter.headerSize, until: deadline, limit: limit, fileTaken: true)
        var reader = WireReader(header)
        let length = Int((try? reader.u32()) ?? 0)
        guard length <= max(largest, Self.deathReportLength) else {
            throw end(.crashed, reason: "a message of \(length) bytes")
        }
        let frame = try receive(count: length, until: deadline, limit: limit, fileTaken: true)
        if length == Self.deathReportLength {
            throw end(frame[0] == UInt8(THUMBS_DEATH_OUT_OF_MEMORY) ? .outOfMemory : .crashed)
        }
        return frame
    }

    /// Reads exactly `count` bytes before `deadline`.
    private func receive(
        count: Int, until deadline: SuspendingClock.Instant, limit: Duration, fileTaken: Bool
    ) throws(WorkerDeath) -> [UInt8] {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(count, 1), alignment: 1)
        defer { buffer.deallocate() }
        var received = 0
        while received < count {
            let left = deadline - SuspendingClock.now
            guard left > .zero else { throw end(.timedOut(limit), reason: "past the time limit") }
            // The socket, and the worker's exit: a copy of the worker's end held by a process
            // forked meanwhile would keep the socket from closing when the worker dies.
            var polled = [
                pollfd(fd: socket, events: Int16(POLLIN), revents: 0),
                pollfd(fd: exit, events: Int16(POLLIN), revents: 0),
            ]
            let ready = Glibc.poll(&polled, exit >= 0 ? 2 : 1, Int32(clamping: Int((left.seconds * 1000).rounded(.up))))
            if ready < 0, errno == EINTR { continue }
            guard ready > 0 else { continue }
            if polled[0].revents == 0 {
                // Gone, and nothing it sent is left to read.
                guard polled[1].revents == 0 else {
                    throw end(fileTaken ? .crashed : nil, reason: "the worker exited")
                }
                continue
            }
            let got = recv(socket, buffer.baseAddress! + received, count - received, 0)
            if got < 0, errno == EINTR || errno == EAGAIN { continue }
            guard got > 0 else { throw end(fileTaken ? .crashed : nil, reason: "the worker's socket closed") }
            received += got
        }
        return Array(buffer.prefix(count))
    }

    /// Ends the worker and says what the file in hand failed with (nil: the file was not taken).
    private func end(_ cause: WorkerDeath.Cause?, reason: String = "") -> WorkerDeath {
        kill(pid, SIGKILL)
        let status = reap()
        return WorkerDeath(cause: cause, status: status, reason: reason)
    }

    /// Waits for the worker's exit; its wait status, or nil when it cannot be had.
    private func reap() -> Int32? {
        var status: Int32 = 0
        while true {
            let result = waitpid(pid, &status, 0)
            if result == pid { return status }
            if result < 0, errno == EINTR { continue }
            return nil
        }
    }
}

/// Runs `body` with `strings` as a NULL-terminated C array.
private func withCStrings<T>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> T) -> T {
    let pointers = strings.map { strdup($0) } + [nil]
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
