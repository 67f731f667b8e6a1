import Foundation
import Testing

/// Whether the suite runs under a sanitizer (`scripts/test --sanitize=...` sets its options for
/// every process it starts): AddressSanitizer's shadow memory and quarantine, or ThreadSanitizer's,
/// make a process's resident memory say nothing of the program's own.
package enum Sanitizer {
    package static var isActive: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
    }

    package static let memorySkipReason: Comment =
        "under a sanitizer, peak resident memory is the sanitizer's: memory tests skipped"
}
