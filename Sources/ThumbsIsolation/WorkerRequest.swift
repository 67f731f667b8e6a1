import ThumbsCore
import ThumbsImaging
import ThumbsRendering

/// What a renderer asks of its worker. The file itself comes beside the message, as a
/// descriptor the renderer opened beneath its root. Its path inside that root crosses too (it
/// hints at formats whose first bytes are ambiguous, and at a screenshot by its folder), but no
/// path the worker could open: it opens none.
package struct WorkerRequest: Equatable {
    package enum Work: Equatable {
        case render(specs: [RenditionSpec])
        case renderCrop(spec: RenditionSpec, crop: NormalizedRect)
        case embeddedPreview(format: ThumbnailFormat, quality: Int)
        case inspect
    }

    package var work: Work
    package var path: String
    package var expectedFingerprint: FileFingerprint?

    /// The most renditions one request asks for: far more than any caller does.
    static let maximumSpecs = 64

    package func encoded() -> [UInt8] {
        var writer = WireWriter()
        writer.string(path)
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

    package init(work: Work, path: String, expectedFingerprint: FileFingerprint?) {
        self.work = work
        self.path = path
        self.expectedFingerprint = expectedFingerprint
    }

    package init(decoding bytes: [UInt8]) throws(WireError) {
        var reader = WireReader(bytes)
        path = try reader.string()
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
