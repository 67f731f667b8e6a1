import CRenderSandbox
import Foundation
import Glibc
import ThumbsSupport

/// A render worker forked from a command as it starts, so that its first render does not wait
/// for a worker to start.
///
/// A worker started from its program loads some 185 libraries (libvips and its loaders, FFmpeg,
/// LibRaw, libheif) and starts libvips before it can take a file: tens of milliseconds a
/// one-file command (`thumbs get`) would wait. Forked from the command instead, it has every
/// library loaded already, and starts libvips while the command reads its configuration and
/// opens its cache. The first ``IsolatedThumbnailRenderer`` the command makes takes it for its
/// first worker; any other worker is started from its program as usual.
///
/// Only a process with one thread can fork safely (a lock another thread held would stay held
/// in the child), so ``fork()`` is called first thing in `main`, and does nothing when the
/// process already has a second thread.
package enum PrestartedWorker {
    private static let waiting = LockedValue<(pid: pid_t, socket: Int32)?>(nil)

    /// Forks the worker, if this process has one thread. The child runs the worker and exits.
    package static func fork() {
        guard threadCount == 1 else { return }
        var socket: Int32 = -1
        let pid = thumbs_fork_worker(&socket)
        if pid == 0 { exit(RenderWorkerProcess.runForked()) }
        guard pid > 0 else { return }
        waiting.withLock { $0 = (pid, socket) }
    }

    /// The forked worker, once: its process id and the socket to it.
    static func take() -> (pid: pid_t, socket: Int32)? {
        waiting.withLock { waiting in
            defer { waiting = nil }
            return waiting
        }
    }

    /// Ends the forked worker unused (the command decodes in its own process).
    package static func discard() {
        guard let (pid, socket) = take() else { return }
        close(socket)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
    }

    private static var threadCount: Int {
        ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []).count
    }
}
