import Foundation
import ThumbsCore

/// The memory decodes in flight may take together, shared by a renderer's render threads.
///
/// A decode reserves its estimate (``ImageFile/decodeMemory(to:renditionPixels:)``) before it starts
/// and gives it back when it ends; one that does not fit waits until enough is free, so large
/// decodes run one after another instead of all at once, and one larger than the whole budget
/// is refused. Waiting blocks the render thread, never a cooperative one. A decode always fits
/// when nothing else is reserved, so the budget cannot stall the renderer.
final class DecodeMemoryBudget: Sendable {
    let bytes: Int
    /// Reserved bytes and the most ever reserved at once, guarded by `condition`.
    private nonisolated(unsafe) var reserved = 0
    private nonisolated(unsafe) var peak = 0
    private let condition = NSCondition()

    /// A budget of `budget` (of at most `Int.max` bytes: what a process can address).
    init(_ budget: ByteCount) {
        bytes = Int(clamping: budget.bytes)
    }

    /// Runs `body` with `needed` bytes reserved, waiting for them when they are not free.
    func withReservation<T>(_ needed: Int, _ body: () throws(ImagingError) -> T) throws(ImagingError) -> T {
        guard needed <= bytes else { throw .tooMuchMemory(needed: needed, budget: bytes) }
        condition.lock()
        while reserved > 0 && reserved + needed > bytes { condition.wait() }
        reserved += needed
        peak = max(peak, reserved)
        condition.unlock()
        defer {
            condition.lock()
            reserved -= needed
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// The most bytes reserved at once so far (tests check it never passes the budget).
    var peakReserved: Int {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }
}
