import Thumbs

/// What `thumbs probe` prints of one file: the header's properties, and for a Live Photo's
/// still or a motion photo its subtype and where its movie is.
struct ProbeDocument: Encodable {
    var properties: ImageProperties
    var pairedMovie: PairedMovie?

    private enum Keys: String, CodingKey {
        case mediaSubtypes, pairedMovie
    }

    private struct MovieJSON: Encodable {
        var path: String
        var mediaType: String
        var fileSize: UInt64
        var duration: Double?
    }

    func encode(to encoder: any Encoder) throws {
        try properties.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        let subtypes: MediaSubtypes = pairedMovie != nil || properties.embeddedMovie != nil ? .photoLive : []
        try container.encode(subtypes.names, forKey: .mediaSubtypes)
        if let pairedMovie {
            let movie = MovieJSON(
                path: pairedMovie.relativePath, mediaType: pairedMovie.mediaType.rawValue,
                fileSize: pairedMovie.fingerprint.size, duration: pairedMovie.duration)
            try container.encode(movie, forKey: .pairedMovie)
        }
    }
}
