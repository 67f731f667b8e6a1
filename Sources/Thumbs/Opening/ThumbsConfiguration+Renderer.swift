import ThumbsCore
import ThumbsImaging
import ThumbsIsolation
import ThumbsRendering
import ThumbsSettings

extension ThumbsConfiguration {
    /// The renderer this configuration implies: workers in confined processes, or (isolation
    /// `"none"`) a renderer in this process that notes its decodes in `journal`.
    public func renderer(journal: (any DecodeJournal)? = nil) throws(ImagingError) -> any ThumbnailRendering {
        guard isolation == .process else {
            // A worker the command forked as it started has nothing to do.
            PrestartedWorker.discard()
            return ThumbnailRenderer(configuration: imaging, journal: journal)
        }
        return try IsolatedThumbnailRenderer(configuration: imaging)
    }
}
