import ThumbsCore

extension EmbeddedMovie {
    /// The movie a motion photo carries: the contents of a HEIF file's top-level `mpvd` box
    /// (Samsung's, exact), else the file's last bytes that its XMP names (Google's Motion Photo
    /// and MicroVideo). Nil unless that range lies within the file and starts with an ISO base
    /// media file's `ftyp` box: a packet's claim is not trusted.
    package init?(in file: FileBytes, xmp: [UInt8]?) {
        let whole = 0..<file.size
        if file.read(at: 4, count: 4).matches("ftyp".utf8, at: 0),
            let box = ISOBox.first("mpvd", in: file, range: whole)
        {
            self.init(in: file, range: box.contents)
        } else if let length = xmp.flatMap({ MotionPhotoXMP($0).trailingMovieLength }), length < file.size {
            self.init(in: file, range: (file.size - length)..<file.size)
        } else {
            return nil
        }
    }

    /// The movie at `range` of `file`, when it is one: it starts with an `ftyp` box. Its
    /// duration is its `mvhd`'s, when its `moov` has one.
    package init?(in file: FileBytes, range: Range<UInt64>) {
        guard range.upperBound <= file.size, let first = ISOBox.boxes(in: file, range: range, limit: 1).first,
            first.type == "ftyp"
        else { return nil }
        self.init(
            offset: range.lowerBound, length: range.upperBound - range.lowerBound,
            duration: Self.duration(in: file, range: range))
    }

    /// Seconds, from the movie header (`moov`/`mvhd`, versions 0 and 1); nil when absent, of
    /// another version, of timescale 0 or of unknown duration.
    static func duration(in file: FileBytes, range: Range<UInt64>) -> Double? {
        guard let movie = ISOBox.first("moov", in: file, range: range),
            let header = ISOBox.first("mvhd", in: file, range: movie.contents)
        else { return nil }
        let fields = file.read(at: header.contentStart, count: Int(min(32, header.end - header.contentStart)))
        let timescale: UInt32?
        let duration: UInt64?
        switch fields.bytes.first {
        case 0:
            timescale = fields.uint32(at: 12)
            duration = fields.uint32(at: 16).flatMap { $0 == .max ? nil : UInt64($0) }
        case 1:
            timescale = fields.uint32(at: 20)
            duration = fields.uint64(at: 24).flatMap { $0 == .max ? nil : $0 }
        default: return nil
        }
        guard let timescale, timescale > 0, let duration else { return nil }
        return Double(duration) / Double(timescale)
    }
}
