import CRenderSandbox
import Foundation
import Glibc
import ThumbsSupport

/// The render workers forked from a command as it starts, so that its first render does not
/// wait for a worker to start.
///
/// A worker opens the decoding libraries its files need (some 150 shared objects: libvips,
/// FFmpeg, LibRaw, libheif; none for JPEGs) before it confines itself and can take a file.
/// Forked from the command, a worker skips starting a program; it opens its libraries once its
/// settings come. The first ``IsolatedThumbnailRenderer`` the command makes takes them
/// for its workers; any more are started from their program as usual.
///
/// Only a process with one thread can fork safely (a lock another thread held would stay held
/// in the child), so ``fork()`` is called first thing in `main`, and does nothing when the
/// process already has a second thread.
package enum PrestartedWorker {
    private static let waiting = LockedValue<[(pid: pid_t, socket: Int32)]>([])

    /// The most workers forked: one per core (the default of `workers`), at most this many.
    static let most = 8

    /// Forks the workers, one per core, if this process has one thread. Each child runs a worker
    /// and exits; each waits for its settings, taking no processor time from the command until
    /// then.
    package static func fork() {
        guard threadCount == 1 else { return }
        for _ in 0..<min(ProcessInfo.processInfo.activeProcessorCount, most) {
            var socket: Int32 = -1
            let pid = thumbs_fork_worker(&socket)
            if pid == 0 { exit(RenderWorkerProcess.runForked()) }
            guard pid > 0 else { return }
            waiting.withLock { $0.append((pid, socket)) }
        }
    }

    /// A forked worker, each once: its process id and the socket to it; nil when none is left.
    static func take() -> (pid: pid_t, socket: Int32)? {
        waiting.withLock { $0.isEmpty ? nil : $0.removeFirst() }
    }

    /// Ends the forked workers nobody took (the command decodes in its own process, or with
    /// fewer workers), at once: they hold nothing of the command's.
    package static func discard() {
        while let (pid, socket) = take() {
            close(socket)
            kill(pid, SIGKILL)
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        }
    }

    private static var threadCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }
}
