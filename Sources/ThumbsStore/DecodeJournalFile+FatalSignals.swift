import Glibc

/// A decode that ends the process by a fatal signal marks its own note as crashed before the
/// signal goes on to the handler there was before (Swift's backtracer, the command's note).
///
/// Only the note of the thread that faulted is marked: the other render threads' decodes were
/// not the cause, and are tried again. A process ended from outside (`kill -9`, the OOM killer,
/// a power cut) marks nothing, so its notes name no culprit and those files are tried again too.
extension DecodeJournalFile {
    /// Where the note of the decode a thread runs is, for that thread's fatal-signal handler.
    struct NoteMark {
        var descriptor: Int32
        var offset: off_t
    }

    /// The current thread's ``NoteMark`` while it decodes.
    static let currentNote: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    static let fatalSignals = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP]

    /// The handlers before this one, each restored as its signal comes. Written once, before
    /// the handler is installed; only read after, by the handler.
    nonisolated(unsafe) private static let previousHandlers: UnsafeMutablePointer<sigaction> = {
        let actions = UnsafeMutablePointer<sigaction>.allocate(capacity: fatalSignals.count)
        actions.initialize(repeating: sigaction(), count: fatalSignals.count)
        return actions
    }()

    /// Installed once, by the first journal.
    static let markingOnFatalSignals: Void = {
        _ = currentNote
        for (index, signal) in fatalSignals.enumerated() {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { signal, info, _ in
                if let mark = pthread_getspecific(DecodeJournalFile.currentNote)?.assumingMemoryBound(to: NoteMark.self)
                {
                    var crashed = DecodeJournalFile.crashedMagic.bigEndian
                    _ = pwrite(mark.pointee.descriptor, &crashed, 4, mark.pointee.offset)
                }
                if let index = DecodeJournalFile.fatalSignals.firstIndex(of: signal) {
                    sigaction(signal, DecodeJournalFile.previousHandlers + index, nil)
                }
                // A fault happens again as the handler returns, now to the handler before; a
                // signal that was sent (abort, kill) is sent again.
                if (info?.pointee.si_code ?? 0) <= 0 { raise(signal) }
            }
            action.sa_flags = SA_SIGINFO
            sigaction(signal, &action, previousHandlers + index)
        }
    }()

    /// Runs `work` with the current thread's note at `offset`, for the fatal-signal handler.
    func marking<T, Failure: Error>(_ offset: off_t, _ work: () throws(Failure) -> T) throws(Failure) -> T {
        let mark = UnsafeMutablePointer<NoteMark>.allocate(capacity: 1)
        mark.initialize(to: NoteMark(descriptor: descriptor, offset: offset))
        pthread_setspecific(Self.currentNote, mark)
        defer {
            pthread_setspecific(Self.currentNote, nil)
            mark.deallocate()
        }
        return try work()
    }
}
