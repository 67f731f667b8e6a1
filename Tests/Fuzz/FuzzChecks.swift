import CVipsShim
import Foundation
import Thumbs
import ThumbsCore
import ThumbsFreedesktop
import ThumbsImaging
import ThumbsLibrary
import ThumbsStore

/// What each parser must do with any bytes: return a value or an error, never crash, and what
/// the program does next with a parsed value (sort by date, pick a stand-in, write it back)
/// must not crash either. Where a value is written back and read again in normal use (the
/// metadata cache, the library's snapshot, capture dates in both), reading what was written
/// must give the same value.
enum FuzzChecks {
    // MARK: Files and EXIF

    static func sniffing(_ bytes: UnsafeRawBufferPointer) {
        let all = Array(bytes)
        // ImageFile sniffs the first sniffLength bytes; the whole input is sniffed too, as
        // the initializer takes any array.
        let head = Array(all.prefix(MediaType.sniffLength))
        let type = MediaType(sniffing: head)
        _ = MediaType(sniffing: all)
        // A name from the input's last bytes, as file names are as untrusted as contents.
        let inputName = String(decoding: all.suffix(8), as: UTF8.self)
        _ = MediaType.isMediaFileName(inputName)
        _ = MediaType.isImageFileName(inputName)
        for name in ["IMG_0001.DNG", "photo.nef", "photo.jpg", ".", "", inputName] {
            let named = MediaType(sniffing: head, fileName: name)
            expect(
                named == type || (type == .tiff && named == .cameraRaw),
                "the name \"\(name)\" turned \(type) into \(named): only TIFF may become raw")
        }
    }

    static func captureDate(_ bytes: UnsafeRawBufferPointer) {
        // libvips hands over two EXIF strings; here the first NUL ends the first one.
        let parts = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        let text = String(decoding: parts[0], as: UTF8.self)
        let offset = parts.count > 1 ? String(decoding: parts[1], as: UTF8.self) : nil
        guard let date = CaptureDate(exif: text, offset: offset) else { return }
        // The library sorts and groups by it, then keeps it in the metadata cache as text.
        let asset = Asset(
            root: "/fuzz", relativePath: "a.jpg", mediaType: .jpeg, fingerprint: fingerprint,
            properties: ImageProperties(
                mediaType: .jpeg, pixelSize: PixelSize(width: 4, height: 3), captureDate: date,
                fingerprint: fingerprint))
        _ = asset.date
        _ = asset.day().description
        let kept = CaptureDate(parsing: date.description)
        expect(
            kept == date, "\(date) (from \"\(text)\") reads back from the cache as \(String(describing: kept))")
    }

    // MARK: config.json

    static func configuration(_ bytes: UnsafeRawBufferPointer) {
        guard let configuration = try? JSONDecoder().decode(ThumbsConfiguration.self, from: Data(bytes)) else {
            return
        }
        // What a command derives from it next, and `thumbs config` prints.
        _ = configuration.store()
        _ = configuration.imaging
        _ = configuration.pipeline
        for rendition in configuration.renditions {
            _ = rendition.spec.description
            _ = rendition.spec.storageKey
        }
        _ = try? JSONEncoder().encode(configuration)
    }

    // MARK: Records of the store

    static func renditionKey(_ bytes: UnsafeRawBufferPointer) {
        guard let spec = RenditionSpec(storageKey: bytes) else { return }
        // The store compares what it reads back with the specs it writes keys for.
        let rewritten = spec.storageKey.withUnsafeBytes { RenditionSpec(storageKey: $0) }
        expect(rewritten == spec, "rendition key of \(spec) reads back as \(String(describing: rewritten))")
        _ = RenditionChoice.canServeAsFinal(spec, for: spec)
        _ = spec.description
    }

    static func metadataRecord(_ bytes: UnsafeRawBufferPointer) {
        guard let metadata = try? AssetMetadata(decoding: bytes) else { return }
        // A rescan writes the cache's metadata into the library's snapshot, unchanged; a record
        // that predates media is inspected again instead, and what is written then is new.
        if !metadata.isOutdated {
            let again = metadata.encoded().withUnsafeBytes { try? AssetMetadata(decoding: $0) }
            let video = metadata.properties?.video
            let strings = [
                metadata.properties?.cameraMake, metadata.properties?.cameraModel, video?.container, video?.codec,
                metadata.properties?.contentIdentifier, metadata.properties?.burst?.identifier,
            ]
            expectRewrite(again, metadata, strings: strings.compactMap { $0 }) {
                $0.encoded().withUnsafeBytes { try? AssetMetadata(decoding: $0) }
            }
        }
        var asset = Asset(
            root: "/fuzz", relativePath: "a", mediaType: metadata.mediaType, fingerprint: metadata.fingerprint,
            properties: metadata.properties)
        asset.placeholder = metadata.placeholder
        // A placeholder read back is whole: it draws and reads back from its text.
        if let placeholder = metadata.placeholder {
            expect(placeholder.rgba().pixels.count > 0, "placeholder \(placeholder) draws nothing")
            expect(ThumbHash(base64: placeholder.base64) == placeholder, "placeholder \(placeholder) reads back")
            _ = placeholder.averageColor
        }
        _ = Moments(sorting: [asset, asset])
        _ = FetchResult(assets: [asset, asset])
    }

    static func failureRecord(_ bytes: UnsafeRawBufferPointer) {
        guard let failure = try? FailureRecord(decoding: bytes) else { return }
        _ = failure.kind.rawValue
        _ = failure.message.count
        _ = failure.failedAt.timeIntervalSinceNow
    }

    static func thumbnailRecord(_ bytes: UnsafeRawBufferPointer) {
        // Reads of the store decode the header alone (to pick a stand-in), or the whole record.
        guard let header = try? StoredThumbnail.Header(decoding: bytes) else {
            expect((try? StoredThumbnail(decoding: bytes)) == nil, "a record without a header decoded")
            return
        }
        guard let stored = try? StoredThumbnail(decoding: bytes) else {
            fatalError("a record whose header decodes did not decode")
        }
        expect(
            stored.thumbnail.pixelSize == header.pixelSize && stored.thumbnail.format == header.format,
            "the record and its header disagree")
        expect(stored.encodedCount == bytes.count, "\(stored.encodedCount) bytes from \(bytes.count)")
        // closestThumbnail weighs each stored rendition's header size against the one wanted.
        for atLeast in [false, true] {
            _ = RenditionChoice.closest(
                [header.pixelSize, PixelSize(width: 256, height: 256)], to: PixelSize(width: 1024, height: 768),
                atLeast: atLeast, size: { $0 })
        }
    }

    static func cursorRecord(_ bytes: UnsafeRawBufferPointer) {
        // `try?` flattens "not a record" (thrown) and "another version" (nil) into nil.
        guard let snapshot = try? FetchResult(cursorRecord: bytes) else { return }
        // Written back by the next rescan, compared with what the walk finds, sorted and
        // grouped by day.
        let again = snapshot.cursorRecord.withUnsafeBytes { try? FetchResult(cursorRecord: $0) }
        let strings = snapshot.flatMap {
            [$0.root, $0.relativePath, $0.properties?.cameraMake, $0.properties?.cameraModel].compactMap { $0 }
        }
        expectRewrite(again, snapshot, strings: strings) {
            $0.cursorRecord.withUnsafeBytes { try? FetchResult(cursorRecord: $0) }
        }
        let sorted = FetchResult(assets: Array(snapshot))
        _ = ChangeDetails.between(snapshot, sorted)
        _ = Moments(sorting: Array(snapshot))
        for asset in snapshot {
            _ = asset.albumTitle
        }
    }

    // MARK: Colour profiles

    static func iccProfile(_ bytes: UnsafeRawBufferPointer) {
        // Copied to memory of its exact size, so that a read past the end is AddressSanitizer's.
        let profile = Array(bytes)
        _ = profile.withUnsafeBufferPointer { thumbs_icc_is_srgb($0.baseAddress, $0.count) }
    }

    // MARK: Live Photos and motion photos

    static func appleMakerNote(_ bytes: UnsafeRawBufferPointer) {
        let block = Array(bytes)
        for note in [AppleMakerNote(exif: block), AppleMakerNote(makerNote: block)] {
            // The probe reads the identifier; the worker's reply check bounds its length.
            if let identifier = note?.contentIdentifier {
                expect(
                    !identifier.isEmpty && identifier.utf8.count <= AppleMakerNote.longestContentIdentifier,
                    "identifier \(identifier)")
            }
            if let burst = note.flatMap(BurstMembership.init(appleMakerNote:)) { expectAcceptable(burst) }
            if let headroom = note?.gainMapHeadroom {
                expect(headroom.isFinite && headroom >= 1, "a gain map's headroom of \(headroom)")
            }
        }
    }

    static func motionPhotoXMP(_ bytes: UnsafeRawBufferPointer) {
        let packet = Array(bytes)
        guard let length = MotionPhotoXMP(packet).trailingMovieLength else { return }
        expect(length > 0, "a movie of no bytes")
        // The packet's claim, checked against a file of the packet and nothing after it.
        let movie = EmbeddedMovie(in: FileBytes(packet), xmp: packet)
        expect(movie.map { $0.offset + $0.length == UInt64(packet.count) } ?? true, "\(String(describing: movie))")
    }

    static func embeddedMovie(_ bytes: UnsafeRawBufferPointer) {
        let file = FileBytes(Array(bytes))
        var end: UInt64 = 0
        for box in ISOBox.boxes(in: file, range: 0..<file.size) {
            expect(box.start == end && box.contentStart <= box.end && box.end <= file.size, "\(box)")
            end = box.end
        }
        for movie in [EmbeddedMovie(in: file, xmp: nil), EmbeddedMovie(in: file, range: 0..<file.size)] {
            guard let movie else { continue }
            // What the API streams: a range of the file.
            expect(movie.offset <= file.size && movie.length <= file.size - movie.offset, "\(movie) past the file")
            expect(movie.duration.map { $0.isFinite && $0 >= 0 } ?? true, "\(movie): its duration")
        }
    }

    // MARK: Gain maps

    static func ultraHDR(_ bytes: UnsafeRawBufferPointer) {
        // A file that starts as a JPEG does, so that the fuzzer reaches the segments.
        let file = [0xFF, 0xD8] + Array(bytes)
        if let range = UltraHDRJPEG.gainMapRange(in: file, length: file.count) {
            expect(range.lowerBound >= 0 && range.upperBound <= file.count && !range.isEmpty, "\(range) past the file")
            if let packet = UltraHDRJPEG.xmpPacket(in: Array(file[range])) {
                expect(packet.count <= range.count, "an XMP packet larger than its gain map")
            }
        }
        if let headroom = UltraHDRJPEG.headroom(of: file) { expect(headroom.isFinite, "headroom \(headroom)") }
        // The gain map's metadata, from the bytes as an XMP packet and as ISO 21496-1's form.
        for metadata in [GainMapMetadata(xmp: XMPPacket(Array(bytes))), GainMapMetadata(iso21496: Array(bytes))] {
            guard let metadata else { continue }
            let lists = [metadata.minimum, metadata.maximum, metadata.gamma, metadata.offsetSDR, metadata.offsetHDR]
            expect(
                [1, 3].contains(metadata.channels) && lists.allSatisfy { $0.count == metadata.channels }, "\(metadata)")
            expect(
                zip(metadata.minimum, metadata.maximum).allSatisfy { $0 <= $1 } && metadata.gamma.allSatisfy { $0 > 0 }
                    && lists.joined().allSatisfy(\.isFinite) && metadata.capacityMinimum >= 0
                    && metadata.capacityMaximum > metadata.capacityMinimum,
                "\(metadata)")
            _ = (metadata.xmp, metadata.iso21496)
        }
    }

    // MARK: Media subtypes

    static func subtypeXMP(_ bytes: UnsafeRawBufferPointer) {
        let packet = XMPPacket(Array(bytes))
        let subtypes = MediaSubtypes(xmp: packet)
        expect(subtypes.isSubset(of: [.photoPanorama, .photoDepthEffect, .photoHDR]), "\(subtypes) from XMP")
        if let burst = BurstMembership(xmp: packet) { expectAcceptable(burst) }
    }

    static func heifMetaBox(_ bytes: UnsafeRawBufferPointer) {
        // A file that starts as HEIF does, so that the fuzzer reaches the meta box.
        let file = FileBytes([0, 0, 0, 16] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array(bytes))
        guard let meta = HEIFMetaBox(in: file) else { return }
        let subtypes = MediaSubtypes(heif: meta)
        expect(subtypes.isSubset(of: [.photoDepthEffect, .photoHDR]), "\(subtypes) from \(meta)")
    }

    static func burstFileName(_ bytes: UnsafeRawBufferPointer) {
        if let burst = BurstMembership(fileName: String(decoding: bytes, as: UTF8.self)) { expectAcceptable(burst) }
    }

    static func jpegSegments(_ bytes: UnsafeRawBufferPointer) {
        // A file that starts as a JPEG does, so that the fuzzer reaches the segments.
        let file = FileBytes([0xFF, 0xD8] + Array(bytes))
        let segments = JPEGSegments(in: file)
        expect(segments.segments.count <= JPEGSegments.largestCount, "\(segments.segments.count) segments")
        expect(
            segments.segments.allSatisfy { $0.marker != 0xDA && $0.prefix.bytes.count <= JPEGSegments.prefixLength },
            "a segment past the header")
        if let header = JPEGHeader(in: file) {
            expect(header.iccProfile(in: file).count <= Int(file.size), "a profile larger than the file")
            expect(
                header.storedSize.pixelCount > 0 && (1...8).contains(header.orientation)
                    && (1...3).contains(header.samplesPerPixel),
                "\(header)")
        }
    }

    static func pngChunks(_ bytes: UnsafeRawBufferPointer) {
        // A file that starts with PNG's signature, so that the fuzzer reaches the chunks.
        let file = FileBytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(bytes))
        if let header = PNGHeader(in: file) {
            expect(
                header.storedSize.pixelCount > 0 && header.chunks.count < PNGHeader.chunksRead
                    && [1, 3].contains(header.bands),
                "\(header)")
            expect(header.iccpChunk.map { $0.offset <= file.size } ?? true, "an iCCP chunk past the end")
        }
    }

    /// What the worker's reply check lets through.
    private static func expectAcceptable(_ burst: BurstMembership) {
        expect(
            !burst.identifier.isEmpty && burst.identifier.utf8.count <= BurstMembership.longestIdentifier,
            "burst \(burst)")
    }

    // MARK: The desktop's thumbnails

    static func desktopThumbnail(_ bytes: UnsafeRawBufferPointer) {
        let png = Array(bytes)
        guard let fields = PNGText.fields(of: png) else { return }
        // What clean does with a thumbnail's URI: a path that never climbs out of its folder.
        if let uri = fields["Thumb::URI"].flatMap(FileURI.init(string:)), let path = uri.path {
            let components = path.split(separator: UInt8(ascii: "/"))
            expect(!components.contains { $0.elementsEqual([0x2E, 0x2E]) }, "a path with .. from \(uri)")
        }
        // Text put back in is read back as it was.
        let latin1 = fields.filter { key, value in
            (1...79).contains(key.unicodeScalars.count) && !key.contains("\0") && !value.contains("\0")
        }
        let pairs = latin1.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
        if let tagged = try? PNGText.inserting(pairs, into: png) {
            let again = PNGText.fields(of: tagged)
            expect(again != nil, "a PNG with text added does not read back")
            for (key, value) in latin1 { expect(again?[key] == value, "\(key) did not read back") }
        }
    }

    // MARK: The cache file

    static func lmdbFile(_ bytes: UnsafeRawBufferPointer) {
        // The check reads data.mdb through a file descriptor, so the input becomes that file.
        close(scratchFile(named: "data.mdb", holding: bytes))
        let everyPage = passes(.everyPage)
        let opening = passes(.opening)
        expect(!everyPage || opening, "a file that passes the check of every page fails the check at opening")
    }

    private static func passes(_ depth: LMDBFileCheck.Depth) -> Bool {
        do {
            try LMDBFileCheck.check(folder: scratch, depth: depth)
            return true
        } catch {
            return false
        }
    }

    /// The file `name` of ``scratch``, holding `bytes`, open for reading and writing: rewritten in
    /// place for each input, as FileManager's atomic writes would cost more than a check.
    static func scratchFile(named name: String, holding bytes: UnsafeRawBufferPointer) -> Int32 {
        let path = scratch + "/" + name
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        expect(descriptor >= 0, "cannot open \(path): errno \(errno)")
        var written = 0
        while written < bytes.count {
            let count = write(descriptor, bytes.baseAddress! + written, bytes.count - written)
            expect(count > 0, "cannot write \(path): errno \(errno)")
            written += count
        }
        return descriptor
    }

    /// A folder of this process's own for the inputs read as files, removed at a normal exit: in
    /// `THUMBS_FUZZ_SCRATCH` (scripts/fuzz removes it, with what crashed processes left), else in
    /// memory where the system has /dev/shm.
    static let scratch: String = {
        let environment = ProcessInfo.processInfo.environment["THUMBS_FUZZ_SCRATCH"] ?? ""
        let base =
            !environment.isEmpty
            ? environment
            : access("/dev/shm", W_OK) == 0 ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        let folder = base + "/thumbs-fuzz-\(getpid())"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: FuzzChecks.scratch) }
        return folder
    }()

    private static let fingerprint = FileFingerprint(size: 1, modificationTimeNanoseconds: 0)

    /// `precondition`, but with its message in an optimized build too (which drops it): the
    /// report must say what broke, not only where. Values are described in 300 characters at
    /// most, as a decoded string may be 200,000 long.
    static func expect(_ condition: Bool, _ message: @autoclosure () -> String) {
        if !condition { fatalError(String(message().prefix(300))) }
    }

    /// That `rewritten`, what a record read as `original` reads back as once written again, is
    /// `original`, and reads back as itself. A string repaired as it was read (each byte that
    /// is not UTF-8 becomes U+FFFD, three bytes) may no longer fit in a record (65,535 bytes)
    /// and is cut when written, so `original` is only matched when all its `strings` fit; then
    /// nothing changes.
    private static func expectRewrite<Value: Equatable>(
        _ rewritten: Value?, _ original: Value, strings: [String], _ rewrite: (Value) -> Value?
    ) {
        guard let rewritten else { fatalError(String("\(Value.self) does not read back: \(original)".prefix(300))) }
        let fits = strings.allSatisfy { $0.utf8.count <= Int(UInt16.max) }
        expect(!fits || rewritten == original, "\(original) reads back as \(rewritten)")
        expect(rewrite(rewritten) == rewritten, "\(rewritten) changes each time it is written")
    }
}
