import Thumbs

/// The events the commands print as JSON lines, each its name under "event" then its fields:
/// docs/EVENTS.md lists them, and what reads them (scripts, tests) reads these fields.
enum JSONEvent: Encodable {
    /// `thumbs warm`, as it goes.
    case progress(WarmJob.Progress)
    /// `thumbs warm` at its end, with the shard warmed.
    case summary(WarmJob.Progress, shard: LibraryShard?)
    /// `thumbs warm` stopped by Ctrl-C, with the shard warmed.
    case interrupted(WarmJob.Progress, shard: LibraryShard?)
    /// A file that failed (`warm`, `render`).
    case failed(WarmJob.Failure)
    /// A file rendered from what decoded of it, at `path` (`warm`, `render`).
    case partial(path: String)
    /// `thumbs render` at its end.
    case rendered(RenderSummary)
    /// `thumbs watch`, once it watches.
    case watching
    /// `thumbs watch`, for each change set.
    case changes(WarmJob.ChangeReport)
    /// `thumbs serve`, once it listens.
    case listening(address: String)

    /// The event's line.
    var line: String { JSONLine.encode(self) }

    var name: String {
        switch self {
        case .progress: "progress"
        case .summary, .rendered: "summary"
        case .interrupted: "interrupted"
        case .failed: "failed"
        case .partial: "partial"
        case .watching: "watching"
        case .changes: "changes"
        case .listening: "listening"
        }
    }

    private enum CodingKeys: String, CodingKey { case event, shard, shards, address, path }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .progress(let progress): try progress.encode(to: encoder)
        case .summary(let progress, _), .interrupted(let progress, _): try progress.encode(to: encoder)
        case .failed(let failure): try failure.encode(to: encoder)
        case .rendered(let summary): try summary.encode(to: encoder)
        case .changes(let report): try report.encode(to: encoder)
        case .watching, .listening, .partial: break
        }
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .event)
        switch self {
        case .summary(_, let shard?), .interrupted(_, let shard?):
            try container.encode(shard.index, forKey: .shard)
            try container.encode(shard.count, forKey: .shards)
        case .listening(let address):
            try container.encode(address, forKey: .address)
        case .partial(let path):
            try container.encode(path, forKey: .path)
        default:
            break
        }
    }
}
