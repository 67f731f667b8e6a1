import Foundation
import ThumbsCore
import ThumbsSupport

/// A remembered failure to render one version of a file, so that a broken file is not decoded
/// again on every run (as the freedesktop thumbnail spec's `fail/` folder does). A changed file
/// has a new fingerprint, and is tried again.
public struct FailureRecord: Sendable, Hashable {
    public var kind: ImagingError.Kind
    public var message: String
    public var failedAt: Date

    public init(kind: ImagingError.Kind, message: String, failedAt: Date = Date()) {
        self.kind = kind
        self.message = message
        self.failedAt = failedAt
    }

    /// The record of an imaging error.
    public init(_ error: ImagingError, failedAt: Date = Date()) {
        self.init(kind: error.kind, message: error.description, failedAt: failedAt)
    }

    package func encoded() -> [UInt8] {
        var writer = ByteWriter(capacity: 64 + message.utf8.count)
        writer.u8(1)
        writer.string(kind.rawValue)
        writer.string(message)
        writer.i64(Int64(failedAt.timeIntervalSince1970))
        return writer.bytes
    }

    package init(decoding record: UnsafeRawBufferPointer) throws(StoreError) {
        var reader = ByteReader(record, record: "failure")
        _ = try reader.u8()
        let kindName = try reader.string()
        guard let kind = ImagingError.Kind(rawValue: kindName) else {
            throw .store("unknown failure kind \(kindName)", "decode failure")
        }
        self.init(
            kind: kind, message: try reader.string(),
            failedAt: Date(timeIntervalSince1970: TimeInterval(try reader.i64())))
    }
}
