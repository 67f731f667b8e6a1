import ThumbsCore
import ThumbsImaging

extension ThumbHash {
    /// Whether `other` has the same aspect ratio and an average colour within 2 % in every
    /// channel: the placeholder of the same picture, one made from its pixels and the other from
    /// its JPEG, whose compression moves colours a little.
    package func resembles(_ other: ThumbHash) -> Bool {
        let mine = averageColor, theirs = other.averageColor
        return approximateAspectRatio == other.approximateAspectRatio && abs(mine.red - theirs.red) < 0.02
            && abs(mine.green - theirs.green) < 0.02 && abs(mine.blue - theirs.blue) < 0.02
    }
}
