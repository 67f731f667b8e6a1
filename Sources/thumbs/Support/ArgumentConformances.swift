import ArgumentParser
import Thumbs

// Values typed on the command line in the spelling config.json and the API use.
extension ContentMode: ExpressibleByArgument {}
extension ThumbnailFormat: ExpressibleByArgument {}
extension DeliveryMode: ExpressibleByArgument {}
