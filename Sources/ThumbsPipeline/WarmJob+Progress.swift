import Foundation
import ThumbsCore
import ThumbsRendering
import ThumbsSupport

extension WarmJob {
    /// Where a run is. As JSON (the `progress`, `summary` and `interrupted` events of
    /// `thumbs warm`, docs/EVENTS.md): the counts, `failed`, `failuresByKind` by kind name,
    /// `rate` rounded to a tenth, and `secondsLeft` when it is known.
    public struct Progress: Sendable, CustomStringConvertible, Encodable {
        /// Assets dealt with (rendered, fresh, skipped or failed) and assets found so far.
        public var done = 0
        public var found = 0
        public var rendered = 0
        public var fresh = 0
        /// Of ``fresh``: the assets of folders passed over whole, counted from the record of the
        /// run that left them with nothing to do (``/ThumbsStore/WarmedFolder``): none of their
        /// files, metadata records or thumbnails was looked at.
        public var freshInWarmedFolders = 0
        /// Assets rendered from what decoded of a damaged file (counted in ``rendered`` too).
        public var partial = 0
        /// Placeholders made: one per rendered photo, and one per fresh photo that had none.
        public var placeholders = 0
        /// Assets skipped because their file failed before and has not changed since.
        public var skippedFailures = 0
        public var failuresByKind: [ImagingError.Kind: Int] = [:]
        /// Assets the cache recognised by their content under a new path (moved, renamed or
        /// copied): their metadata and thumbnails were copied from the old path's, not made.
        public var recognised = 0
        /// Files gone from the library since the last run that kept its listings, whose
        /// entries every output forgot.
        public var forgotten = 0
        /// The bytes of the thumbnails handed to the outputs.
        public var bytesWritten = 0
        public var elapsed: Duration = .zero
        /// True once the walk has found everything.
        public var walkFinished = false

        public init() {}

        public var failed: Int { failuresByKind.values.reduce(0, +) }

        /// Assets per second over the run.
        public var rate: Double {
            elapsed.seconds > 0 ? Double(done) / elapsed.seconds : 0
        }

        /// Seconds to go at the current rate, counting the assets found so far.
        public var estimatedSecondsLeft: Double? {
            rate > 0 ? Double(found - done) / rate : nil
        }

        public var description: String {
            var text = "\(done)/\(found)\(walkFinished ? "" : "+") assets, \(rendered) rendered, \(fresh) fresh"
            if partial > 0 { text += ", \(partial) partial" }
            if skippedFailures > 0 { text += ", \(skippedFailures) known failures skipped" }
            if recognised > 0 { text += ", \(recognised) recognised moved or copied" }
            if forgotten > 0 { text += ", \(forgotten) gone forgotten" }
            if failed > 0 { text += ", \(failed) failed" }
            return text + String(format: ", %.1f/s", rate)
        }

        private enum CodingKeys: String, CodingKey {
            case done, found, rendered, fresh, partial, placeholders, skippedFailures, failed, bytesWritten, rate
            case recognised, forgotten, freshInWarmedFolders
            case failuresByKind, secondsLeft
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(done, forKey: .done)
            try container.encode(found, forKey: .found)
            try container.encode(rendered, forKey: .rendered)
            try container.encode(fresh, forKey: .fresh)
            try container.encode(freshInWarmedFolders, forKey: .freshInWarmedFolders)
            try container.encode(partial, forKey: .partial)
            try container.encode(placeholders, forKey: .placeholders)
            try container.encode(skippedFailures, forKey: .skippedFailures)
            try container.encode(failed, forKey: .failed)
            try container.encode(recognised, forKey: .recognised)
            try container.encode(forgotten, forKey: .forgotten)
            try container.encode(bytesWritten, forKey: .bytesWritten)
            try container.encode((rate * 10).rounded() / 10, forKey: .rate)
            try container.encode(failuresByKind.byName, forKey: .failuresByKind)
            try container.encodeIfPresent(estimatedSecondsLeft?.rounded(), forKey: .secondsLeft)
        }
    }
}

extension Dictionary where Key == ImagingError.Kind, Value == Int {
    /// The counts by kind name, as reports print them.
    package var byName: [String: Int] {
        [String: Int](uniqueKeysWithValues: map { ($0.key.rawValue, $0.value) })
    }
}
