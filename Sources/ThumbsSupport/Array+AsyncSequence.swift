extension Array where Element: Sendable {
    /// The elements as an asynchronous sequence, for code that takes its input either from a
    /// walk or from a list already in hand.
    package var asyncSequence: AsyncThrowingStream<Element, any Error> {
        AsyncThrowingStream { continuation in
            for element in self { continuation.yield(element) }
            continuation.finish()
        }
    }
}
