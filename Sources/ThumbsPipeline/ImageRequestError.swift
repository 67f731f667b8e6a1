import ThumbsCore
import ThumbsRendering
import ThumbsStore

/// Why a request gave no final image.
///
/// ```swift
/// do { show(try await manager.image(for: asset, targetSize: box, contentMode: .aspectFill)) }
/// catch .imaging(let error) { showBroken(error.kind) }
/// catch .failedBefore(let failure) { showBroken(failure.kind) }
/// catch { ... }
/// ```
public enum ImageRequestError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file could not be rendered (or read).
    case imaging(ImagingError)
    /// The file, as it is now, failed to render before: its failure as the failure memo
    /// remembers it (``/ThumbsLibrary/FailureMemo``), the file not decoded again.
    case failedBefore(FailureRecord)
    /// The cache could not be read.
    case store(StoreError)
    /// The request was cancelled before its final image came.
    case cancelled

    /// The request error for anything delivery threw: imaging and store errors as they are,
    /// cancellation as ``cancelled``. A renderer is to throw only those (see
    /// `ThumbnailRendering`); anything else one throws is reported as an unreadable file, with
    /// its text.
    init(_ error: any Error) {
        switch error {
        case let error as ImageRequestError: self = error
        case let error as ImagingError: self = .imaging(error)
        case let error as StoreError: self = .store(error)
        case is CancellationError: self = .cancelled
        default: self = .imaging(.unreadable("\(error)"))
        }
    }

    public var description: String {
        switch self {
        case .imaging(let error): "\(error.kind.rawValue): \(error)"
        case .failedBefore(let failure): "\(failure.kind.rawValue): \(failure.message)"
        case .store(let error): "cache: \(error)"
        case .cancelled: "cancelled"
        }
    }
}
