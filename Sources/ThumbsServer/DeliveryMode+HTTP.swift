import ThumbsPipeline
import ThumbsSettings

extension DeliveryMode {
    /// The mode a thumbnail URL's `delivery` parameter names (docs/HTTP.md): `final` (or none)
    /// for ``highQualityFormat``, `opportunistic`, `fast` for ``fastFormat``.
    init(deliveryParameter value: Substring?) throws(APIError) {
        switch value {
        case nil, "final": self = .highQualityFormat
        case "opportunistic": self = .opportunistic
        case "fast": self = .fastFormat
        default: throw .badRequest("bad-delivery", "delivery is final, opportunistic or fast")
        }
    }
}
