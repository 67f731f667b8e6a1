import ArgumentParser
import Thumbs

/// A delivery mode as typed on the command line.
enum DeliveryChoice: String, ExpressibleByArgument, CaseIterable {
    case opportunistic, fast, hq

    var mode: DeliveryMode {
        switch self {
        case .opportunistic: .opportunistic
        case .fast: .fastFormat
        case .hq: .highQualityFormat
        }
    }
}
