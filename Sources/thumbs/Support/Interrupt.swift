import Dispatch
import Foundation
import Thumbs
import ThumbsFreedesktop

/// The first Ctrl-C (SIGINT) runs `handler` (a clean stop) instead of killing the process; a
/// second one exits at once with status 130, in case the clean stop itself is stuck (waiting
/// for another process's cache lock, say). Until disarmed.
final class Interrupt {
    private let source: DispatchSourceSignal

    init(_ handler: @escaping @Sendable () -> Void) {
        signal(SIGINT, SIG_IGN)
        source = DispatchSource.makeSignalSource(signal: SIGINT, queue: .global())
        let presses = LockedValue(0)
        source.setEventHandler {
            let count = presses.withLock { count -> Int in
                count += 1
                return count
            }
            if count == 1 {
                FileHandle.standardError.write(
                    Data("\nthumbs: stopping; committing what is done (Ctrl-C again to quit at once)\n".utf8))
                handler()
            } else {
                _exit(130)
            }
        }
        source.resume()
    }

    func disarm() {
        source.cancel()
        signal(SIGINT, SIG_DFL)
    }

    /// Runs `work` so that Ctrl-C stops it cleanly: then `onInterrupt` runs and the command
    /// fails with status 130. A cache failure (the store's or the desktop's) fails with status 3.
    static func run<T: Sendable>(
        onInterrupt: () -> Void = {}, _ work: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        let task = Task { try await work() }
        let interrupt = Interrupt { task.cancel() }
        let outcome = await task.result
        interrupt.disarm()
        switch outcome {
        case .success(let value) where !task.isCancelled:
            return value
        case .success, .failure(is CancellationError):
            // Interrupted is 130 even when the work ended as the interrupt came.
            onInterrupt()
            throw CommandFailure.interrupted
        case .failure(let error as StoreError):
            throw CommandFailure.cache(nil, error)
        case .failure(let error as DesktopCacheError):
            throw CommandFailure.cache("desktop thumbnail cache: \(error)")
        case .failure(let error):
            throw error
        }
    }
}
