import Foundation
import Glibc

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

    /// Writes `bytes` to a file named by raw bytes inside the folder ("/" separates folders,
    /// which are made), for names that are not valid UTF-8.
    package func write(_ bytes: [UInt8], toRawName name: [UInt8]) throws {
        var path = Array(path.utf8)
        let parts = name.split(separator: 0x2F)
        for (index, part) in parts.enumerated() {
            path += [0x2F] + part
            let cPath = path.map { CChar(bitPattern: $0) } + [0]
            if index < parts.count - 1 {
                guard mkdir(cPath, 0o755) == 0 || errno == EEXIST else { throw POSIXError(.init(rawValue: errno)!) }
                continue
            }
            let descriptor = open(cPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno)!) }
            defer { close(descriptor) }
            guard bytes.withUnsafeBytes({ Glibc.write(descriptor, $0.baseAddress, $0.count) }) == bytes.count else {
                throw POSIXError(.EIO)
            }
        }
    }
}
