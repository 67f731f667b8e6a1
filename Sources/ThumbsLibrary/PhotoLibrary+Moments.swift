import Foundation

extension PhotoLibrary {
    /// Moments built while the walk runs. Every batch is merged into the sections and a snapshot
    /// published; a consumer slower than the walk gets only the newest snapshot, the stale ones
    /// in between are dropped ("take the tail"). The last snapshot holds every asset.
    public func moments(batchSize: Int = 50, timeZone: TimeZone = .current) -> AsyncThrowingStream<Moments, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(
            of: Moments.self, bufferingPolicy: .bufferingNewest(1))
        let batches = assets(batchSize: batchSize)
        let producer = Task {
            var moments = Moments(timeZone: timeZone)
            do {
                for try await batch in batches where !batch.assets.isEmpty {
                    moments.merge(batch.assets)
                    continuation.yield(moments)
                }
                if moments.assetCount == 0 { continuation.yield(moments) }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in producer.cancel() }
        return stream
    }
}
