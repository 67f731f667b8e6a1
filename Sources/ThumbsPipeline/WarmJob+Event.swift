import ThumbsCore
import ThumbsRendering
import ThumbsLibrary

extension WarmJob {
    /// What a run reports as it goes.
    public enum Event: Sendable {
        /// Where the run is: after every asset, and after every batch the walk finds.
        case progress(Progress)
        /// An asset that could not be rendered, or a file the walk could not list.
        case failed(Failure)
        /// An asset rendered from what decoded of its damaged file (a truncated file, a bad
        /// restart marker: ``/ThumbsCore/Thumbnail/isPartial``): rendered, and a warning, not a
        /// failure.
        case partial(Asset)
        /// Something the walk noticed that is no failure of a file: a link out of the library
        /// (not followed), a header it could not read, a file that kept changing.
        case issue(LibraryIssue)
    }

    /// A file that could not be rendered, and why. As JSON (the `failed` event,
    /// docs/EVENTS.md): `path`, `kind` (the error's kind name) and `message`.
    public struct Failure: Sendable, Encodable {
        /// The file's path, with its library root.
        public var path: String
        public var error: ImagingError
        /// The file as an asset, when it is known as one (an unlisted file as an asset of no
        /// media type): what the outputs record the failure of.
        public var asset: Asset?

        public init(path: String, error: ImagingError, asset: Asset? = nil) {
            self.path = path
            self.error = error
            self.asset = asset
        }

        private enum CodingKeys: String, CodingKey { case path, kind, message }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(path, forKey: .path)
            try container.encode(error.kind.rawValue, forKey: .kind)
            try container.encode(error.description, forKey: .message)
        }
    }
}
