import Logging
import ThumbsSupport

/// The command's log (swift-log, to stderr): notices by default, debug with --verbose, errors
/// only with --quiet.
enum CommandLog {
    private static let level = LockedValue<Logger.Level>(.notice)
    private static let started = LockedValue(false)

    static var logger: Logger {
        var logger = Logger(label: "thumbs")
        logger.logLevel = level.withLock { $0 }
        return logger
    }

    /// Whether --quiet was given: progress and per-file lines are left out.
    static var isQuiet: Bool { level.withLock { $0 } >= .error }

    /// Sets the level and sends logs to stderr; only the first call counts.
    static func start(verbose: Bool, quiet: Bool) {
        let first = started.withLock { started in
            defer { started = true }
            return !started
        }
        guard first else { return }
        level.withLock { $0 = quiet ? .error : verbose ? .debug : .notice }
        LoggingSystem.bootstrap { label in StreamLogHandler.standardError(label: label) }
    }
}
