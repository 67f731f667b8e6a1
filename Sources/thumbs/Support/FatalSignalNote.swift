import Glibc

/// A last line on stderr when the process is killed by SIGSEGV or SIGBUS.
///
/// Opening a cache checks its file's structure where LMDB starts reading (LMDBFileCheck), and
/// `thumbs verify` checks every page, but a damaged page deep in a table is only found when
/// something reads it, and LMDB follows it blindly. Such a read cannot be made safe in process;
/// the damage stays contained all the same: a crash writes nothing, LMDB's last commit stands,
/// and the next command finds the cache as it was. This note tells the user what to do about it.
/// The handler only writes a fixed text (async-signal-safe) and re-raises the signal with its
/// default action, so the exit status still says which signal it was.
enum FatalSignalNote {
    static func install() {
        for signal in [SIGSEGV, SIGBUS] {
            var action = sigaction()
            action.__sigaction_handler.sa_handler = { number in
                let note: StaticString =
                    "thumbs: crashed; a damaged cache can do this: `thumbs verify` checks it and `thumbs reset` moves it aside\n"
                _ = write(STDERR_FILENO, note.utf8Start, note.utf8CodeUnitCount)
                Glibc.signal(number, SIG_DFL)
                raise(number)
            }
            action.sa_flags = Int32(bitPattern: SA_RESETHAND)
            sigaction(signal, &action, nil)
        }
    }
}
