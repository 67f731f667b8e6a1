import Foundation
import ThumbsImaging

/// What a renderer asks of its worker. The file itself comes beside the message, as a
/// descriptor the renderer opened beneath its root: no path crosses, only the file's name, which
/// hints at formats whose first bytes are ambiguous.
package struct WorkerRequest: Equatable {
    package enum Work: Equatable {
        case render(specs: [RenditionSpec])
        case renderCrop(spec: RenditionSpec, crop: NormalizedRect)
        case embeddedPreview(format: ThumbnailFormat, quality: Int)
        case inspect
    }

    package var work: Work
    package var fileName: String
    package var expectedFingerprint: FileFingerprint?

    /// The most renditions one request asks for: far more than any caller does.
    static let maximumSpecs = 64

    package func encoded() -> [UInt8] {
        var writer = WireWriter()
        writer.string(fileName)
        writer.bool(expectedFingerprint != nil)
        if let expectedFingerprint {
            writer.u64(expectedFingerprint.size)
            writer.i64(expectedFingerprint.modificationTimeNanoseconds)
        }
        switch work {
        case .render(let specs):
            writer.u8(0)
            writer.count(specs.count)
            for spec in specs { writer.spec(spec) }
        case .renderCrop(let spec, let crop):
            writer.u8(1)
            writer.spec(spec)
            for value in [crop.x, crop.y, crop.width, crop.height] { writer.f64(value) }
        case .embeddedPreview(let format, let quality):
            writer.u8(2)
            writer.u8(UInt8(ThumbnailFormat.allCases.firstIndex(of: format)!))
            writer.count(quality)
        case .inspect:
            writer.u8(3)
        }
        return writer.framed()
    }

    package init(work: Work, fileName: String, expectedFingerprint: FileFingerprint?) {
        self.work = work
        self.fileName = fileName
        self.expectedFingerprint = expectedFingerprint
    }

    package init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        fileName = try reader.string()
        expectedFingerprint =
            try reader.bool()
            ? FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64()) : nil
        switch try reader.u8() {
        case 0:
            let count = try reader.count(atMost: Self.maximumSpecs)
            var specs: [RenditionSpec] = []
            for _ in 0..<count { specs.append(try reader.spec()) }
            work = .render(specs: specs)
        case 1:
            let spec = try reader.spec()
            work = .renderCrop(
                spec: spec,
                crop: NormalizedRect(
                    x: try reader.f64(), y: try reader.f64(), width: try reader.f64(),
                    height: try reader.f64()))
        case 2:
            work = .embeddedPreview(
                format: try reader.oneOf(ThumbnailFormat.allCases), quality: try reader.count(atMost: 100))
        case 3:
            work = .inspect
        case let other:
            throw .malformed("unknown request \(other)")
        }
        guard reader.isAtEnd else { throw .malformed("bytes after a request") }
    }
}

/// What a worker answers: the encoded results, or why the file failed.
package enum WorkerReply: Equatable {
    case thumbnails([Thumbnail])
    case preview(Thumbnail?)
    case inspection(Inspection)
    case failure(ImagingError)

    package func encoded() -> [UInt8] {
        var writer = WireWriter(capacity: 64 << 10)
        switch self {
        case .thumbnails(let thumbnails):
            writer.u8(0)
            writer.count(thumbnails.count)
            for thumbnail in thumbnails { writer.thumbnail(thumbnail) }
        case .preview(let thumbnail):
            writer.u8(1)
            writer.bool(thumbnail != nil)
            if let thumbnail { writer.thumbnail(thumbnail) }
        case .inspection(let inspection):
            writer.u8(2)
            writer.u8(UInt8(MediaType.allCases.firstIndex(of: inspection.mediaType)!))
            writer.u64(inspection.fingerprint.size)
            writer.i64(inspection.fingerprint.modificationTimeNanoseconds)
            writer.bool(inspection.changedWhileRead)
            // The header's details are many optional fields, read rarely: JSON keeps them simple.
            writer.blob(inspection.properties.flatMap { try? JSONEncoder().encode($0) } ?? Data())
            writer.bool(inspection.problem != nil)
            if let problem = inspection.problem { writer.error(problem) }
        case .failure(let error):
            writer.u8(3)
            writer.error(error)
        }
        return writer.framed()
    }

    /// The reply in `bytes`, checked for shape: counts, lengths and values in range. What the
    /// results must be for the request is checked by ``ReplyCheck``.
    package init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        switch try reader.u8() {
        case 0:
            let count = try reader.count(atMost: WorkerRequest.maximumSpecs)
            var thumbnails: [Thumbnail] = []
            for _ in 0..<count { thumbnails.append(try reader.thumbnail()) }
            self = .thumbnails(thumbnails)
        case 1:
            self = .preview(try reader.bool() ? try reader.thumbnail() : nil)
        case 2:
            let mediaType = try reader.oneOf(MediaType.allCases)
            let fingerprint = FileFingerprint(size: try reader.u64(), modificationTimeNanoseconds: try reader.i64())
            let changedWhileRead = try reader.bool()
            let json = try reader.blob(atMost: 1 << 20)
            var properties: ImageProperties?
            if !json.isEmpty {
                do { properties = try JSONDecoder().decode(ImageProperties.self, from: Data(json)) } catch {
                    throw .malformed("an image's properties: \(error)")
                }
            }
            let problem = try reader.bool() ? try reader.error() : nil
            self = .inspection(
                Inspection(
                    mediaType: mediaType, fingerprint: fingerprint, properties: properties, problem: problem,
                    changedWhileRead: changedWhileRead))
        case 3:
            self = .failure(try reader.error())
        case let other:
            throw .malformed("unknown reply \(other)")
        }
        guard reader.isAtEnd else { throw .malformed("bytes after a reply") }
    }
}

/// What a worker says once it is ready for work: the confinement it is under.
struct WorkerGreeting: Equatable {
    var confinement: WorkerConfinement

    func encoded() -> [UInt8] {
        var writer = WireWriter()
        writer.u32(confinement.measures.rawValue)
        writer.u64(confinement.addressSpaceLimit)
        writer.count(confinement.landlockABI)
        return writer.framed()
    }

    init(confinement: WorkerConfinement) {
        self.confinement = confinement
    }

    init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        confinement = WorkerConfinement(
            measures: .init(rawValue: try reader.u32()), addressSpaceLimit: try reader.u64(),
            landlockABI: try reader.count(atMost: 1 << 16))
        guard reader.isAtEnd else { throw .malformed("bytes after a greeting") }
    }
}

extension WireWriter {
    mutating func spec(_ spec: RenditionSpec) {
        count(spec.size.width)
        count(spec.size.height)
        u8(UInt8(ContentMode.allCases.firstIndex(of: spec.contentMode)!))
        u8(UInt8(ThumbnailFormat.allCases.firstIndex(of: spec.format)!))
        count(spec.quality)
        bool(spec.allowsUpscaling)
    }

    mutating func thumbnail(_ thumbnail: Thumbnail) {
        count(thumbnail.pixelSize.width)
        count(thumbnail.pixelSize.height)
        u8(UInt8(ThumbnailFormat.allCases.firstIndex(of: thumbnail.format)!))
        blob(thumbnail.bytes)
        blob(thumbnail.placeholder?.bytes ?? [])
    }

    mutating func error(_ error: ImagingError) {
        var numbers: [Int64] = []
        var text = ""
        switch error {
        case .unsupportedFormat(let message), .truncated(let message), .corrupt(let message),
            .unreadable(let message), .encodingFailed(let message), .libraryUnavailable(let message),
            .decoderMissing(let message):
            text = message
        case .tooManyPixels(let width, let height, let limit): numbers = [Int64(width), Int64(height), Int64(limit)]
        case .tooMuchMemory(let needed, let budget): numbers = [Int64(needed), Int64(budget)]
        case .timedOut(let limit): numbers = [Int64(limit.seconds * 1000)]
        case .emptyFile, .changedWhileRendering, .noVideoStream, .crashed: break
        }
        string(error.kind.rawValue)
        string(text)
        u8(UInt8(numbers.count))
        for number in numbers { i64(number) }
    }
}

extension WireReader {
    mutating func spec() throws(WireError) -> RenditionSpec {
        let size = PixelSize(
            width: try count(atMost: RenditionSpec.maximumDimension),
            height: try count(atMost: RenditionSpec.maximumDimension))
        return RenditionSpec(
            size: size, contentMode: try oneOf(ContentMode.allCases), format: try oneOf(ThumbnailFormat.allCases),
            quality: try count(atMost: 100), allowsUpscaling: try bool())
    }

    /// The largest encoded thumbnail accepted: a 16,384-pixel-square PNG of noise, compressed
    /// not at all, is 1 GiB; nothing a render is asked for comes near.
    static let largestThumbnail = 1 << 30

    mutating func thumbnail() throws(WireError) -> Thumbnail {
        let size = PixelSize(
            width: try count(atMost: RenditionSpec.maximumDimension),
            height: try count(atMost: RenditionSpec.maximumDimension))
        let format = try oneOf(ThumbnailFormat.allCases)
        var thumbnail = Thumbnail(bytes: try blob(atMost: Self.largestThumbnail), pixelSize: size, format: format)
        let placeholder = try blob(atMost: 64)
        if !placeholder.isEmpty {
            guard let hash = ThumbHash(bytes: placeholder) else { throw .malformed("a placeholder") }
            thumbnail.placeholder = hash
        }
        return thumbnail
    }

    mutating func error() throws(WireError) -> ImagingError {
        let kind = ImagingError.Kind(rawValue: try string())
        let text = try string()
        let count = Int(try u8())
        guard count <= 3 else { throw .malformed("an error with \(count) numbers") }
        var numbers: [Int] = []
        for _ in 0..<count { numbers.append(Int(truncatingIfNeeded: try i64())) }
        func number(_ index: Int) throws(WireError) -> Int {
            guard index < numbers.count else { throw .malformed("an error without its numbers") }
            return numbers[index]
        }
        switch kind {
        case .unsupportedFormat: return .unsupportedFormat(text)
        case .emptyFile: return .emptyFile
        case .truncated: return .truncated(text)
        case .corrupt: return .corrupt(text)
        case .tooManyPixels: return .tooManyPixels(width: try number(0), height: try number(1), limit: try number(2))
        case .tooMuchMemory: return .tooMuchMemory(needed: try number(0), budget: try number(1))
        case .unreadable: return .unreadable(text)
        case .changedWhileRendering: return .changedWhileRendering
        case .encodingFailed: return .encodingFailed(text)
        case .libraryUnavailable: return .libraryUnavailable(text)
        case .noVideoStream: return .noVideoStream
        case .decoderMissing: return .decoderMissing(text)
        case .timedOut: return .timedOut(.milliseconds(try number(0)))
        case .crashed: return .crashed
        case nil: throw .malformed("an unknown error kind")
        }
    }
}
