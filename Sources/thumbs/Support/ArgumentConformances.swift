import ArgumentParser
import Thumbs
import ThumbsFreedesktop

// Values typed on the command line in the spelling config.json and the API use.
extension ContentMode: ExpressibleByArgument {}
extension ThumbnailFormat: ExpressibleByArgument {}
extension DeliveryMode: ExpressibleByArgument {}
extension ThumbnailFlavor: ExpressibleByArgument {}
