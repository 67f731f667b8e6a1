import Foundation
import Testing

/// Whether the suite runs under a sanitizer (`scripts/test` sets its options for
/// every process it starts): AddressSanitizer's shadow memory and quarantine, or ThreadSanitizer's,
/// make a process's resident memory say nothing of the program's own.
package enum Sanitizer {
    package static var isActive: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["ASAN_OPTIONS"] != nil || environment["TSAN_OPTIONS"] != nil
    }

    /// Why the tests of peak resident memory are voided.
    package static let memoryReason = "peak resident memory is the sanitizer's"

    /// The first words of the reason of every test a sanitizer voids, which `scripts/test` finds
    /// in the sanitized run's report (scripts/thumbs_tools/sanitizer_skips.py) to run those tests
    /// again in a plain build.
    package static let voidedReasonPrefix = "under a sanitizer "
}

extension Trait where Self == ConditionTrait {
    /// Off under a sanitizer, which turns off what the test checks (under one, the render workers
    /// take no seccomp filter, Landlock or address-space limit: the sanitizer's report needs what
    /// they refuse) or makes it meaningless (peak memory); `why` says which. `scripts/test` runs
    /// such a test in a plain build after the suite under the sanitizer.
    package static func voidedBySanitizer(_ why: String) -> Self {
        .disabled(if: Sanitizer.isActive, Comment(rawValue: Sanitizer.voidedReasonPrefix + why))
    }
}
