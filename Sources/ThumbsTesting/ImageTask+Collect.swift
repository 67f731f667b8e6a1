import ThumbsPipeline

extension ImageTask {
    /// Every result the task delivers, in order, and the error it ended with, if any: what a
    /// test of an opportunistic request checks at once (the degraded image, then the final one).
    ///
    /// ```swift
    /// let (results, error) = await manager.requestImage(for: asset, targetSize: size, contentMode: .aspectFill).collect()
    /// #expect(results.map(\.isDegraded) == [true, false] && error == nil)
    /// ```
    public func collect() async -> (results: [ImageResult], error: (any Error)?) {
        var results: [ImageResult] = []
        do {
            for try await result in self { results.append(result) }
            return (results, nil)
        } catch {
            return (results, error)
        }
    }
}
