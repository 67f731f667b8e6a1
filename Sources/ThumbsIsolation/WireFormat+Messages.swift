import ThumbsCore
import ThumbsImaging
import ThumbsSupport

/// How the messages' parts are written and read.
extension WireWriter {
    mutating func spec(_ spec: RenditionSpec) {
        count(spec.size.width)
        count(spec.size.height)
        u8(UInt8(ContentMode.allCases.firstIndex(of: spec.contentMode)!))
        u8(UInt8(ThumbnailFormat.allCases.firstIndex(of: spec.format)!))
        count(spec.quality)
        bool(spec.allowsUpscaling)
        u8(UInt8(HDRRendering.allCases.firstIndex(of: spec.hdr)!))
    }

    mutating func thumbnail(_ thumbnail: Thumbnail) {
        count(thumbnail.pixelSize.width)
        count(thumbnail.pixelSize.height)
        u8(UInt8(ThumbnailFormat.allCases.firstIndex(of: thumbnail.format)!))
        blob(thumbnail.bytes)
        blob(thumbnail.placeholder?.bytes ?? [])
        bool(thumbnail.isPartial)
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
            quality: try count(atMost: 100), allowsUpscaling: try bool(), hdr: try oneOf(HDRRendering.allCases))
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
        thumbnail.isPartial = try bool()
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
