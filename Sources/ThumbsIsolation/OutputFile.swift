import CRenderSandbox
import Glibc
import SystemPackage
import ThumbsSupport

/// A new file beside an output, made before the process confines itself and renamed onto the
/// output once the thumbnail is written whole (``ConfinedRender``): a reader never sees part of a
/// thumbnail, and a file that fails leaves nothing at the output.
struct OutputFile {
    /// The output's folder (O_PATH), which the confined process may rename within.
    let directory: Int32
    /// The new file's name in ``directory``: ".NAME.RANDOM.part".
    let temporaryName: String
    /// The output's name in ``directory``.
    let name: String
    private let descriptor: Int32
    private let output: FilePath

    init(beside output: FilePath) throws(ConfinedRender.Failure) {
        guard let last = output.lastComponent, last.kind == .regular else {
            throw .output("cannot write \(output): not a file's name")
        }
        self.output = output
        name = last.string
        temporaryName = ".\(name).\(String(UInt64.random(in: .min ... .max), radix: 16)).part"
        let folder = output.removingLastComponent()
        let directory = (folder.isEmpty ? "." : folder.string).withCString { thumbs_open_directory($0) }
        guard directory >= 0 else { throw .output("cannot write \(output): \(SystemError.describe(-directory))") }
        let descriptor = temporaryName.withCString {
            openat(directory, $0, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
        }
        guard descriptor >= 0 else {
            let failure = errno
            close(directory)
            throw .output("cannot write \(output): \(SystemError.describe(failure))")
        }
        self.directory = directory
        self.descriptor = descriptor
    }

    /// Writes `bytes` to the new file and renames it onto the output; on failure the new file is
    /// removed.
    func commit(_ bytes: [UInt8]) throws(ConfinedRender.Failure) {
        let failure = bytes.withUnsafeBytes { buffer -> Int32 in
            var written = 0
            while written < buffer.count {
                let count = write(descriptor, buffer.baseAddress! + written, buffer.count - written)
                if count < 0, errno == EINTR { continue }
                guard count > 0 else { return count < 0 ? errno : EIO }
                written += count
            }
            return close(descriptor) == 0 ? 0 : errno
        }
        let renamed = failure == 0 ? thumbs_rename_in_directory(directory, temporaryName, name) : -failure
        guard renamed == 0 else {
            discard()
            throw .output("cannot write \(output): \(SystemError.describe(-renamed))")
        }
    }

    /// Removes the new file.
    func discard() {
        _ = thumbs_unlink_in_directory(directory, temporaryName)
    }
}
