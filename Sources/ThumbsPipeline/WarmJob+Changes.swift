import ThumbsCore
import ThumbsLibrary

extension WarmJob {
    /// Brings the outputs in step with a change of the library (what `thumbs watch` and the
    /// server's watch do with each): forgets what was removed, warms what was inserted or
    /// changed, and says what became of them.
    public func apply(_ change: ChangeDetails) async throws -> ChangeReport {
        try await forget(change.removedAssets)
        var failures: [Failure] = []
        let progress = try await run(change.insertedAndChangedAssets) { event in
            if case .failed(let failure) = event { failures.append(failure) }
        }
        return ChangeReport(change: change, progress: progress, failures: failures)
    }

    /// What ``apply(_:)`` made of a change. As JSON (the `changes` event of `thumbs watch`,
    /// docs/EVENTS.md): the counts of assets `inserted`, `removed` and `changed`, how many were
    /// `rendered`, and `failed`, one "path: kind" per file that failed.
    public struct ChangeReport: Sendable, Encodable {
        public var change: ChangeDetails
        /// The warm of what was inserted or changed.
        public var progress: Progress
        public var failures: [Failure]

        public init(change: ChangeDetails, progress: Progress, failures: [Failure]) {
            self.change = change
            self.progress = progress
            self.failures = failures
        }

        /// One "path: kind" per file that failed.
        public var failureLines: [String] { failures.map { "\($0.path): \($0.error.kind.rawValue)" } }

        private enum CodingKeys: String, CodingKey { case inserted, removed, changed, rendered, failed }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(change.insertedIndexes.count, forKey: .inserted)
            try container.encode(change.removedIndexes.count, forKey: .removed)
            try container.encode(change.changedIndexes.count, forKey: .changed)
            try container.encode(progress.rendered, forKey: .rendered)
            try container.encode(failureLines, forKey: .failed)
        }
    }
}
