import ThumbsCore
import ThumbsRendering
import ThumbsStore
import ThumbsPipeline
import ThumbsSupport

/// The settings `config.json` writes at its top level, as they are written there: each one the
/// composed layer setting it stands for.
extension ThumbsConfiguration {
    /// Render threads, and so the most decodes in flight; 0 means one per core
    /// (``/ThumbsRendering/ImagingConfiguration/requestedWorkers`` nil).
    public var workers: Int {
        get { imaging.requestedWorkers ?? 0 }
        set {
            if newValue > 0 { imaging.workers = newValue } else { imaging.requestedWorkers = nil }
        }
    }

    /// Largest image accepted, in pixels: ``/ThumbsRendering/ImagingConfiguration/pixelLimit``.
    public var pixelLimit: Int {
        get { imaging.pixelLimit }
        set { imaging.pixelLimit = newValue }
    }

    /// Memory all decodes in flight may take together, written like "1 GiB":
    /// ``/ThumbsRendering/ImagingConfiguration/decodeMemoryBudget``.
    public var decodeMemoryBudget: ByteCount {
        get { imaging.decodeMemoryBudget }
        set { imaging.decodeMemoryBudget = newValue }
    }

    /// Seconds a video's or a camera RAW file's decode may take before it is stopped and the
    /// file fails as timed out: ``/ThumbsRendering/ImagingConfiguration/decodeTimeLimit``.
    public var decodeTimeLimit: Double {
        get { imaging.decodeTimeLimit.seconds }
        set { imaging.decodeTimeLimit = .seconds(newValue) }
    }

    /// Delivery mode of requests that do not name one:
    /// ``/ThumbsPipeline/PipelineConfiguration/deliveryMode``.
    public var deliveryMode: DeliveryMode {
        get { pipeline.deliveryMode }
        set { pipeline.deliveryMode = newValue }
    }
}
