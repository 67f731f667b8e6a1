import Foundation

/// Runs the real `thumbs` executable (or another one the package builds), as a user would.
package struct ThumbsProcess {
    package struct Outcome {
        package let status: Int32
        package let standardOutput: String
        package let standardError: String
    }

    /// An executable SwiftPM built beside the test bundle.
    package static func executable(_ name: String = "thumbs") -> URL {
        let beside = Bundle.main.bundleURL.appendingPathComponent(name)
        if FileManager.default.isExecutableFile(atPath: beside.path) { return beside }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/debug/\(name)")
    }

    /// Starts `thumbs` with `arguments` and returns the running process: its standard output
    /// into `output` (nowhere when nil), its errors nowhere.
    package static func start(_ arguments: [String], output: Pipe? = nil) throws -> Process {
        let process = Process()
        process.executableURL = executable()
        process.arguments = arguments
        process.standardOutput = output ?? FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `name` (or the program at `executablePath`) with `arguments` to completion, with
    /// `environment` added to the test's own. With `killedAfter`, a program still running after
    /// that long is killed (SIGKILL, its status then), so that a test of a hang fails instead
    /// of hanging.
    package static func run(
        _ arguments: [String], executable name: String = "thumbs", executablePath: String? = nil,
        in folder: String? = nil, environment: [String: String] = [:], killedAfter limit: Duration? = nil
    ) throws -> Outcome {
        let process = Process()
        process.executableURL = executablePath.map { URL(fileURLWithPath: $0) } ?? executable(name)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let killer = DispatchWorkItem { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        if let limit {
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .milliseconds(Int(limit.components.seconds * 1000)), execute: killer)
        }
        defer { killer.cancel() }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(
            status: process.terminationStatus,
            standardOutput: String(decoding: outputData, as: UTF8.self),
            standardError: String(decoding: errorData, as: UTF8.self))
    }
}
