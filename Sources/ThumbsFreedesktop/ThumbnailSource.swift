import ThumbsCore
import ThumbsRendering

/// What a desktop thumbnail says of the file it was made from: the text fields the spec names,
/// and by which a reader knows the thumbnail is current (the URI and the modification time).
public struct ThumbnailSource: Sendable, Hashable {
    public var uri: FileURI
    /// The file's modification time in whole seconds since 1970, as `stat` gives it.
    public var modificationTime: Int64
    /// The file's size in bytes.
    public var fileSize: UInt64
    /// Its MIME type, when known.
    public var mimeType: String?
    /// Its pixel size, upright, when known.
    public var pixelSize: PixelSize?

    public init(
        uri: FileURI, modificationTime: Int64, fileSize: UInt64, mimeType: String? = nil, pixelSize: PixelSize? = nil
    ) {
        self.uri = uri
        self.modificationTime = modificationTime
        self.fileSize = fileSize
        self.mimeType = mimeType
        self.pixelSize = pixelSize
    }

    /// The text fields of a thumbnail of this file, in the spec's order.
    func fields(software: String) -> [(key: String, value: String)] {
        var fields = [
            (key: "Thumb::URI", value: uri.string), (key: "Thumb::MTime", value: String(modificationTime)),
            (key: "Thumb::Size", value: String(fileSize)),
        ]
        if let mimeType { fields.append((key: "Thumb::Mimetype", value: mimeType)) }
        if let pixelSize {
            fields.append((key: "Thumb::Image::Width", value: String(pixelSize.width)))
            fields.append((key: "Thumb::Image::Height", value: String(pixelSize.height)))
        }
        fields.append((key: "Software", value: software))
        return fields
    }

    /// Whether a thumbnail's fields say it was made from this file as it is now.
    func isDescribed(by fields: [String: String]) -> Bool {
        fields["Thumb::URI"] == uri.string && fields["Thumb::MTime"] == String(modificationTime)
    }
}
