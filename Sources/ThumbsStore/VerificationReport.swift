/// What `verify` found; consistent when `problems` is empty.
public struct VerificationReport: Sendable, Hashable {
    public var thumbnails = 0
    public var liveBytes: Int64 = 0
    public var problems: [String] = []
    public var isConsistent: Bool { problems.isEmpty }
}
