import Thumbs

/// What `thumbs probe` prints of one file: the header's properties, its subtypes, and for a
/// Live Photo's still the movie beside it.
struct ProbeDocument: Encodable {
    var properties: ImageProperties
    var pairedMovie: PairedMovie?

    private enum Keys: String, CodingKey {
        case pairedMovie
    }

    private struct MovieJSON: Encodable {
        var path: String
        var mediaType: String
        var fileSize: UInt64
        var duration: Double?
    }

    func encode(to encoder: any Encoder) throws {
        var shown = properties
        shown.mediaSubtypes = Asset.mediaSubtypes(of: properties, hasPairedMovie: pairedMovie != nil)
        try shown.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        if let pairedMovie {
            let movie = MovieJSON(
                path: pairedMovie.relativePath, mediaType: pairedMovie.mediaType.rawValue,
                fileSize: pairedMovie.fingerprint.size, duration: pairedMovie.duration)
            try container.encode(movie, forKey: .pairedMovie)
        }
    }
}
