import ThumbsPipeline
import ThumbsSettings

extension DeliveryMode {
    /// The mode a thumbnail URL's `delivery` parameter names (docs/HTTP.md): none for
    /// ``highQualityFormat``, else a name ``init(name:)`` reads (`final`, `opportunistic`, `fast`,
    /// or PhotoKit's, as the command line's `--delivery` takes them).
    init(deliveryParameter value: Substring?) throws(APIError) {
        guard let value else {
            self = .highQualityFormat
            return
        }
        guard let mode = DeliveryMode(name: value) else {
            throw .badRequest(
                "bad-delivery", "delivery is final, opportunistic or fast (highQualityFormat, fastFormat)")
        }
        self = mode
    }
}
