import Foundation
import Glibc

/// The render workers (`thumbs-render-worker`) of a process, seen from outside as a person would
/// see them: through /proc.
package enum RenderWorkers {
    /// The workers `parent` started, running now.
    package static func children(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(pid_t.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return false }
            // "PID (COMM) STATE PPID ...": the name is cut to 15 bytes by the kernel.
            let name = stat[stat.index(after: stat.firstIndex(of: "(")!)..<close]
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return name == "thumbs-render-w" && fields.count > 1 && pid_t(fields[1]) == parent
        }
    }

    /// Whether `worker` is decoding a file through libvips: it holds, beyond its idle
    /// descriptors (0 to 2, its socket at 3, its statm at 4) and the file handed over (5),
    /// libvips' own read of that file (6), which exists only while a decode runs.
    package static func isDecoding(_ worker: pid_t) -> Bool {
        FileManager.default.fileExists(atPath: "/proc/\(worker)/fd/6")
    }

    /// The names of the files `pid` has open.
    package static func heldFiles(of pid: pid_t) -> [String] {
        let folder = "/proc/\(pid)/fd"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).compactMap { descriptor in
            (try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + descriptor))
                .map { URL(fileURLWithPath: $0).lastPathComponent }
        }
    }

    /// Stops (SIGSTOP) a worker among `workers()` that is decoding, and returns it; nil once
    /// `gaveUp()`. A signal is delivered, not obeyed at once: the worker counts as stopped once
    /// every thread of it is, and only then is it checked again, so it surely has a file in hand.
    /// Polls the workers' state, which changes within a decode's milliseconds.
    package static func stopOneDecoding(among workers: () -> [pid_t], gaveUp: () -> Bool) -> pid_t? {
        while !gaveUp() {
            for worker in workers() where isDecoding(worker) {
                kill(worker, SIGSTOP)
                if waitUntilStopped(worker), isDecoding(worker) { return worker }
                kill(worker, SIGCONT)
            }
            usleep(500)
        }
        return nil
    }

    /// ``stopOneDecoding(among:gaveUp:)`` on a thread of its own: the polling never holds one of
    /// Swift's cooperative threads, which the renders it watches need to finish.
    package static func stopOneDecoding(
        among workers: @escaping @Sendable () -> [pid_t], gaveUp: @escaping @Sendable () -> Bool
    ) async -> pid_t? {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: stopOneDecoding(among: workers, gaveUp: gaveUp)) }.start()
        }
    }

    /// Waits until every thread of `pid` is stopped; false if the process is gone.
    ///
    /// A thread stopped by the signal shows `T`; under a tracer (a debugger, or the strace of
    /// scripts/check-packages) it shows `t`, in its group stop or in a stop of the tracer's from
    /// which it goes on into the group stop before it runs another instruction of its own, as the
    /// SIGSTOP is pending by then: either way it decodes no further.
    private static func waitUntilStopped(_ pid: pid_t) -> Bool {
        while true {
            guard let threads = try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task"),
                !threads.isEmpty
            else { return false }
            let states = threads.map { state(of: "/proc/\(pid)/task/\($0)/stat") }
            if states.contains(nil) || states.contains("Z") || states.contains("X") { return false }
            if states.allSatisfy({ $0 == "T" || $0 == "t" }) { return true }
            usleep(500)
        }
    }

    /// The state letter of a `stat` file (the field after the parenthesised name).
    private static func state(of path: String) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
            let close = text.lastIndex(of: ")")
        else { return nil }
        return text[text.index(after: close)...].split(separator: " ").first.map(String.init)
    }
}
