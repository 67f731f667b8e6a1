import ThumbsImaging

/// Why a ``LibraryFactory`` could not open a library.
public enum LibraryFactoryError: Error, CustomStringConvertible {
    /// A library folder that does not exist.
    case missingRoot(String)
    /// The cache path holds ``LibraryFactory/shardPlaceholder``, and no shard was given to
    /// stand for it.
    case unsetShardPlaceholder(cachePath: String)
    /// The cache at `path` could not be opened, or the crashed decodes recorded in it.
    case cache(path: String, any Error)
    /// An output could not record a crashed decode.
    case output(any Error)
    /// The renderer could not start (the render worker program is missing, say).
    case renderer(ImagingError)

    public var description: String {
        switch self {
        case .missingRoot(let folder): "\(folder): no such folder"
        case .unsetShardPlaceholder(let path):
            "the cache path \(path) holds \(LibraryFactory.shardPlaceholder), and no shard is given"
        case .cache(let path, let error): "cache \(path): \(error)"
        case .output(let error): "\(error)"
        case .renderer(let error): "\(error.kind.rawValue): \(error)"
        }
    }
}
