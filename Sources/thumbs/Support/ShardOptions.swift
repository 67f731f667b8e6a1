import ArgumentParser
import Foundation
import Thumbs

/// `--shard K/N` and `--shards N`: warm one part of the library, as one task of a Slurm job array
/// or of a Kubernetes Indexed Job (docs/SCALING.md).
struct ShardOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "Warm only shard K of N (K from 0): the assets whose id hashes there.", valueName: "K/N"))
    var shard: String?

    @Option(
        help: ArgumentHelp(
            """
            Warm one shard of N, K taken from the environment: JOB_COMPLETION_INDEX (a Kubernetes \
            Indexed Job), else SLURM_ARRAY_TASK_ID (a Slurm job array).
            """, valueName: "N"))
    var shards: Int?

    /// The shard asked for, or nil for the whole library; when the options and the environment
    /// do not name one shard, a usage error.
    func resolve(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> LibraryShard? {
        do {
            if let shard {
                let parsed = try LibraryShard(parsing: shard)
                if let shards, shards != parsed.count {
                    throw CommandFailure.usage("--shard \(shard) and --shards \(shards) disagree")
                }
                return parsed
            }
            guard let shards else { return nil }
            return try LibraryShard(index: try Self.index(in: environment, shards: shards), count: shards)
        } catch let invalid as LibraryShard.Invalid {
            throw CommandFailure.usage("\(invalid)")
        }
    }

    /// This task's index: a Kubernetes Indexed Job's, else a Slurm array task's counted from the
    /// array's first (`--array=1-4` and `--array=0-15:4` both make shards 0 to 3).
    private static func index(in environment: [String: String], shards: Int) throws -> Int {
        func number(_ name: String) throws -> Int? {
            guard let text = environment[name] else { return nil }
            guard let value = Int(text) else { throw CommandFailure.usage("\(name)=\(text) is not a number") }
            return value
        }
        if let index = try number("JOB_COMPLETION_INDEX") { return index }
        guard let task = try number("SLURM_ARRAY_TASK_ID") else {
            throw CommandFailure.usage(
                "--shards \(shards) takes the shard from JOB_COMPLETION_INDEX or SLURM_ARRAY_TASK_ID, and neither is set; "
                    + "name it with --shard K/\(shards)")
        }
        if let tasks = try number("SLURM_ARRAY_TASK_COUNT"), tasks != shards {
            throw CommandFailure.usage(
                "the job array has \(tasks) tasks but --shards says \(shards): some assets would be in no task")
        }
        let first = try number("SLURM_ARRAY_TASK_MIN") ?? 0
        let step = max(1, try number("SLURM_ARRAY_TASK_STEP") ?? 1)
        return (task - first) / step
    }
}
