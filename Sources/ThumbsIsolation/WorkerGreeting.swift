/// What a worker says once it is ready for work: the confinement it is under.
struct WorkerGreeting: Equatable {
    var confinement: WorkerConfinement

    /// The bytes of a greeting.
    static let size = 16

    func encoded() -> [UInt8] {
        var writer = WireWriter()
        writer.u32(confinement.measures.rawValue)
        writer.u64(confinement.addressSpaceLimit)
        writer.count(confinement.landlockABI)
        return writer.framed()
    }

    init(confinement: WorkerConfinement) {
        self.confinement = confinement
    }

    init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        confinement = WorkerConfinement(
            measures: .init(rawValue: try reader.u32()), addressSpaceLimit: try reader.u64(),
            landlockABI: try reader.count(atMost: 1 << 16))
        guard reader.isAtEnd else { throw .malformed("bytes after a greeting") }
    }
}
