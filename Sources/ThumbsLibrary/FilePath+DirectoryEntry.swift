import Glibc
import SystemPackage

extension FilePath.Component {
    /// The name of a `readdir` entry, or nil for "." and "..".
    ///
    /// `d_name` is declared as 256 bytes, but an entry ends just after its name's NUL: the name
    /// is read in place, up to the NUL, never copied whole (which reads past the entry).
    init?(directoryEntry entry: UnsafeMutablePointer<dirent>) {
        let name = UnsafeRawPointer(entry).advanced(by: MemoryLayout<dirent>.offset(of: \.d_name)!)
            .withMemoryRebound(to: CChar.self, capacity: 1) { FilePath.Component(platformString: $0) }
        guard let name, name.kind == .regular else { return nil }
        self = name
    }

    /// Whether the name starts with ".".
    var isHidden: Bool { withPlatformString { $0.pointee == 0x2E } }
}
