import Foundation

/// A folder under the system's temporary directory, removed when the value goes away.
package final class TemporaryFolder {
    package let url: URL
    package var path: String { url.path }

    package init(_ label: String = "thumbs-tests") {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name` inside the folder and returns the file's path.
    @discardableResult
    package func write(_ bytes: [UInt8], to name: String) throws -> String {
        let target = url.appendingPathComponent(name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(),
            withIntermediateDirectories: true)
        try Data(bytes).write(to: target)
        return target.path
    }
}
