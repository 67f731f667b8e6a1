import CRenderSandbox

/// What holds a render worker in: the measures it put itself under before it read a byte of
/// input, as it reported them.
///
/// ```swift
/// print(WorkerConfinement.available)   // seccomp, landlock (ABI 7), no-new-privs, address-space limit, not dumpable
/// ```
public struct WorkerConfinement: Sendable, Hashable, CustomStringConvertible {
    public struct Measures: OptionSet, Sendable, Hashable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }

        /// The worker can never gain privileges (setuid programs, file capabilities).
        public static let noNewPrivileges = Measures(rawValue: UInt32(THUMBS_CONFINED_NO_NEW_PRIVS))
        /// No core dump of it is written, and no process of the user may attach to it.
        public static let notDumpable = Measures(rawValue: UInt32(THUMBS_CONFINED_NOT_DUMPABLE))
        /// Its address space is limited: a runaway allocation fails there.
        public static let addressSpaceLimit = Measures(rawValue: UInt32(THUMBS_CONFINED_ADDRESS_SPACE))
        /// Landlock: no file-system access at all (and no TCP where the kernel's ABI has it).
        public static let landlock = Measures(rawValue: UInt32(THUMBS_CONFINED_LANDLOCK))
        /// seccomp-bpf: only the system calls decoding needs; opening a path fails, and exec,
        /// fork, ptrace and new sockets kill the worker.
        public static let seccomp = Measures(rawValue: UInt32(THUMBS_CONFINED_SECCOMP))

        /// Every measure a worker takes.
        public static let all: Measures = [.seccomp, .landlock, .noNewPrivileges, .addressSpaceLimit, .notDumpable]
    }

    public var measures: Measures
    /// The address-space limit in bytes (0: none).
    public var addressSpaceLimit: UInt64
    /// The Landlock ABI the kernel offered (0: none).
    public var landlockABI: Int

    public init(measures: Measures, addressSpaceLimit: UInt64, landlockABI: Int) {
        self.measures = measures
        self.addressSpaceLimit = addressSpaceLimit
        self.landlockABI = landlockABI
    }

    /// The measures by name, strongest first: "seccomp, landlock (ABI 7), no-new-privs, ...".
    public var names: [String] {
        var names: [String] = []
        if measures.contains(.seccomp) { names.append("seccomp") }
        if measures.contains(.landlock) { names.append("landlock (ABI \(landlockABI))") }
        if measures.contains(.noNewPrivileges) { names.append("no-new-privs") }
        if measures.contains(.addressSpaceLimit) { names.append("address-space limit") }
        if measures.contains(.notDumpable) { names.append("not dumpable") }
        return names
    }

    /// The measures missing from the full set, by name: what this kernel cannot do.
    public var missing: [String] {
        var missing: [String] = []
        if !measures.contains(.seccomp) { missing.append("seccomp") }
        if !measures.contains(.landlock) { missing.append("landlock") }
        return missing
    }

    public var description: String { names.isEmpty ? "none" : names.joined(separator: ", ") }

    /// What a worker started now would be under, from what this kernel offers: every measure but
    /// those it lacks (Landlock before Linux 5.13, seccomp where it is not built in).
    public static var available: WorkerConfinement {
        let abi = Int(thumbs_landlock_abi())
        var measures: Measures = [.noNewPrivileges, .notDumpable, .addressSpaceLimit]
        if abi > 0 { measures.insert(.landlock) }
        if thumbs_seccomp_available() == 1 { measures.insert(.seccomp) }
        return WorkerConfinement(measures: measures, addressSpaceLimit: 0, landlockABI: abi)
    }
}
