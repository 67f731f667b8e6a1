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

    /// Stops (SIGSTOP) a worker among `workers()` that is decoding, and returns it; nil once
    /// `gaveUp()`. The worker is checked again once stopped, so it surely has a file in hand.
    /// Polls the workers' state, which changes within a decode's milliseconds.
    package static func stopOneDecoding(among workers: () -> [pid_t], gaveUp: () -> Bool) -> pid_t? {
        while !gaveUp() {
            for worker in workers() where isDecoding(worker) {
                kill(worker, SIGSTOP)
                if isDecoding(worker) { return worker }
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
}
