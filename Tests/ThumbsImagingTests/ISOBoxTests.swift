import Testing
import ThumbsImaging

/// Box headers of ISO base media files: 32-bit and 64-bit sizes, a last box to the end, and
/// boxes that do not fit.
@Suite struct ISOBoxTests {
    static func box(_ type: String, size: Int, largeSize: UInt64? = nil) -> [UInt8] {
        let size32: [UInt8] = (0..<4).reversed().map { UInt8(truncatingIfNeeded: size >> ($0 * 8)) }
        let large = largeSize.map { value in (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        return size32 + Array(type.utf8) + (large ?? [])
    }

    @Test func boxesFollowOneAnother() {
        let bytes =
            Self.box("ftyp", size: 12) + [1, 2, 3, 4] + Self.box("mdat", size: 1, largeSize: 20) + [0, 0, 0, 0]
            + Self.box("free", size: 0) + [9, 9]
        let boxes = ISOBox.boxes(in: FileBytes(bytes), range: 0..<UInt64(bytes.count))
        #expect(boxes.map(\.type) == ["ftyp", "mdat", "free"])
        #expect(boxes.map(\.contents) == [8..<12, 28..<32, 40..<42])
    }

    @Test(arguments: [
        box("ftyp", size: 4), box("ftyp", size: 100), box("mdat", size: 1, largeSize: .max),
        box("mdat", size: 1, largeSize: 8), [0, 0, 0],
    ])
    func aBoxThatDoesNotFitEndsTheList(bytes: [UInt8]) {
        #expect(ISOBox.boxes(in: FileBytes(bytes + [0, 0, 0, 0]), range: 0..<UInt64(bytes.count + 4)).isEmpty)
    }
}
