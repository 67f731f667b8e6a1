/// The movie a motion photo carries inside its file, after its picture (Google's
/// `GCamera:MotionPhoto` JPEGs and HEICs, Samsung's `mpvd` box): a byte range of the file that
/// is an MP4 of its own.
public struct EmbeddedMovie: Sendable, Hashable, Codable {
    /// Where the movie starts, in bytes from the file's start.
    public var offset: UInt64
    /// The movie's length in bytes.
    public var length: UInt64
    /// Seconds, when the movie's header says.
    public var duration: Double?

    public init(offset: UInt64, length: UInt64, duration: Double? = nil) {
        self.offset = offset
        self.length = length
        self.duration = duration
    }
}
