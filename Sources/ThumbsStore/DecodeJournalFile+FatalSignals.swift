import CDecodeJournal
import Glibc

/// A decode that ends the process by a fatal signal marks its note as crashed before the signal
/// goes on to the handler there was before (Swift's backtracer, the command's note, a
/// sanitizer's): the handler is `CDecodeJournal`'s, in C, where only async-signal-safe calls are
/// made.
///
/// A fault on a thread that decodes marks that decode's note alone: the other render threads'
/// files were not the cause, and are tried again. A fault on a thread with no note of its own (a
/// decoding library's worker thread: libvips' loaders, libheif's tiles) marks every decode under
/// way, since any of them may have caused it. A process ended by SIGKILL (`kill -9`, the OOM
/// killer) or a power cut marks nothing, and the files it was decoding are tried again.
extension DecodeJournalFile {
    /// Runs `work` as the current thread's decode, noted at `offset`.
    func marking<T, Failure: Error>(_ offset: off_t, _ work: () throws(Failure) -> T) throws(Failure) -> T {
        thumbs_journal_enter(descriptor, Int64(offset))
        defer { thumbs_journal_leave() }
        return try work()
    }
}
