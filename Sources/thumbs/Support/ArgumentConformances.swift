import ArgumentParser
import Thumbs
import ThumbsFreedesktop

// Values typed on the command line in the spelling config.json and the API use.
extension ContentMode: ExpressibleByArgument {}
extension ThumbnailFormat: ExpressibleByArgument {}
extension HDRRendering: ExpressibleByArgument {}
extension DeliveryMode: ExpressibleByArgument {
    /// PhotoKit's names (config.json's) and the short ones of a thumbnail URL alike.
    public init?(argument: String) { self.init(name: argument) }
}
extension ThumbnailFlavor: ExpressibleByArgument {}
