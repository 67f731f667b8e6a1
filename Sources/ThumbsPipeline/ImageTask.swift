/// A running request for an image, as the `PHImageRequestID` of `requestImage` with its
/// results attached: an `AsyncSequence` of one or two ``ImageResult``s (see ``DeliveryMode``),
/// an id, and a way to cancel it. The sequence ends with an ``ImageRequestError`` when no final
/// image can be had.
///
/// Stopping the iteration early does not stop the work while the task is still held: call
/// ``cancel()``.
public struct ImageTask: AsyncSequence, Sendable {
    public typealias Element = ImageResult
    public let id: UInt64
    let results: AsyncThrowingStream<ImageResult, any Error>
    let work: Task<Void, Never>

    /// Stops the request; its render stops too if no other request waits for it. The sequence
    /// ends (with ``ImageRequestError/cancelled`` if no final image came).
    public func cancel() {
        work.cancel()
    }

    public func makeAsyncIterator() -> AsyncThrowingStream<ImageResult, any Error>.AsyncIterator {
        results.makeAsyncIterator()
    }
}
