/// The version of Thumbs: what `thumbs version` prints, and what names this program to other
/// programs (the desktop thumbnail cache's `Software` field and failure folder).
public enum ThumbsVersion {
    public static let current = "0.3.0"
}
