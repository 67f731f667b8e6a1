import CVips
import CVipsShim
import Foundation

/// Gives every libvips failure its own message.
///
/// libvips keeps one error buffer for the whole process, and warnings (where damaged files
/// often say what is wrong, such as "IHDR: CRC error") go to one log handler. Calls run
/// concurrently under shared access; when one fails, it is run once more under exclusive access,
/// with the buffer cleared and warnings captured, so the message and the error kind derived
/// from it describe that file alone. Failures are rare, so the retry costs little, and a
/// failure that does not repeat (a file still being written) ends as the retry's success.
enum VipsCallGate {
    private static let gate = SharedExclusiveGate()

    static func run<T>(_ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        do {
            return try gate.withShared(body)
        } catch where error.isLibvipsFailure {
            return try gate.withExclusive { () throws(ImagingError) -> T in
                vips_error_clear()
                thumbs_vips_capture_warnings(1)
                defer { thumbs_vips_capture_warnings(0) }
                return try body()
            }
        }
    }
}

extension ImagingError {
    /// Errors whose kind and message came from libvips' shared error text.
    var isLibvipsFailure: Bool {
        switch self {
        case .truncated, .corrupt, .encodingFailed, .unsupportedFormat: true
        default: false
        }
    }
}

/// A lock many holders share or one holds alone; waiting exclusive holders go first, so a
/// retry is not starved by a steady stream of renders. All state is guarded by `condition`.
private final class SharedExclusiveGate: @unchecked Sendable {
    private let condition = NSCondition()
    private var sharedHolders = 0
    private var exclusiveWaiting = 0
    private var exclusiveHeld = false

    func withShared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        condition.withLock {
            while exclusiveHeld || exclusiveWaiting > 0 { condition.wait() }
            sharedHolders += 1
        }
        defer {
            condition.withLock {
                sharedHolders -= 1
                if sharedHolders == 0 { condition.broadcast() }
            }
        }
        return try body()
    }

    func withExclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        condition.withLock {
            exclusiveWaiting += 1
            while exclusiveHeld || sharedHolders > 0 { condition.wait() }
            exclusiveWaiting -= 1
            exclusiveHeld = true
        }
        defer {
            condition.withLock {
                exclusiveHeld = false
                condition.broadcast()
            }
        }
        return try body()
    }
}
