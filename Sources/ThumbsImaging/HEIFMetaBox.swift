import ThumbsCore

/// What a HEIF (HEIC, AVIF) file's `meta` box says of its items beyond the primary picture,
/// read from box headers through the file's descriptor, decoding nothing: the auxiliary
/// pictures' types (`auxC`: depth, portrait mattes, gain maps), the items' types (a `tmap`
/// item is an ISO 21496-1 gain-map picture), the primary item's colour transfer (its `colr`
/// box of type `nclx`), and what tells whether libheif alone renders it (its type, size,
/// rotation, crop; the pictures' bit depths; a thumbnail item). Every count and offset is
/// checked against the boxes that hold it; what does not fit is left out.
package struct HEIFMetaBox: Sendable, Hashable {
    /// The `aux_type` of every `auxC` property ("urn:mpeg:hevc:2015:auxid:2",
    /// "urn:com:apple:photo:2018:aux:portraiteffectsmatte"…).
    package var auxiliaryTypes: [String] = []
    /// The four-character type of every item ("hvc1", "grid", "Exif", "tmap"…).
    package var itemTypes: Set<String> = []
    /// The transfer characteristics (ITU-T H.273) of the primary item's `nclx` colour: 16 is PQ,
    /// 18 HLG.
    package var primaryTransferCharacteristics: Int?
    /// The primary item's type ("hvc1", "av01", "grid"…).
    package var primaryItemType: String?
    /// The primary picture's size upright (its `ispe` turned by its `irot`), as libheif and
    /// libvips' loader give it; nil when it is cropped (`clap`) or states no size.
    package var primaryUprightSize: PixelSize?
    /// The most bits per sample any picture's properties state (`pixi`, `hvcC`, `av1C`).
    package var largestBitDepth = 0

    /// The largest box read whole (`iinf`, `ipco`, `ipma`, `pitm`): a photo's are a few
    /// kilobytes.
    static let largestBox: UInt64 = 1 << 20
}

extension HEIFMetaBox {
    /// The `meta` box of `file`; nil unless the file starts with an `ftyp` box and has a `meta`.
    package init?(in file: FileBytes) {
        let whole = 0..<file.size
        guard file.read(at: 4, count: 4).matches("ftyp".utf8, at: 0),
            let meta = ISOBox.first("meta", in: file, range: whole), meta.contents.count >= 4
        else { return nil }
        let children = ISOBox.boxes(in: file, range: (meta.contentStart + 4)..<meta.end)
        func contents(_ type: String) -> BoundedBytes? {
            guard let box = children.first(where: { $0.type == type }), box.end - box.contentStart <= Self.largestBox
            else { return nil }
            return file.read(at: box.contentStart, count: Int(box.end - box.contentStart))
        }
        let items = contents("iinf").map(Self.items) ?? []
        itemTypes = Set(items.map(\.type))
        let primary = contents("pitm").flatMap(Self.primaryItem)
        primaryItemType = items.first { $0.id == primary }?.type
        guard let properties = children.first(where: { $0.type == "iprp" }) else { return }
        let propertyBoxes = ISOBox.boxes(in: file, range: properties.contents)
        guard let container = propertyBoxes.first(where: { $0.type == "ipco" }) else { return }
        let list = ISOBox.boxes(in: file, range: container.contents)
        for box in list where box.type == "auxC" && box.end - box.contentStart <= Self.largestBox {
            let bytes = file.read(at: box.contentStart, count: Int(box.end - box.contentStart)).bytes.dropFirst(4)
            auxiliaryTypes.append(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
        }
        largestBitDepth = list.compactMap { Self.bitDepth(of: $0, in: file) }.max() ?? 0
        guard let primary, let associations = propertyBoxes.first(where: { $0.type == "ipma" }),
            associations.end - associations.contentStart <= Self.largestBox
        else { return }
        let table = file.read(at: associations.contentStart, count: Int(associations.end - associations.contentStart))
        func associated(with item: UInt32) -> [ISOBox] {
            Self.propertyIndices(of: item, in: table).compactMap { $0 >= 1 && $0 <= list.count ? list[$0 - 1] : nil }
        }
        for property in associated(with: primary) where property.type == "colr" {
            let colour = file.read(at: property.contentStart, count: 8)
            guard colour.matches("nclx".utf8, at: 0), let transfer = colour.uint16(at: 6) else { continue }
            primaryTransferCharacteristics = Int(transfer)
        }
        primaryUprightSize = Self.uprightSize(associated(with: primary), in: file)
    }

    /// The size an item's properties give it upright: its `ispe` turned by its `irot`; nil
    /// when it is cropped (`clap`) or states no size.
    private static func uprightSize(_ properties: [ISOBox], in file: FileBytes) -> PixelSize? {
        var size: PixelSize?
        var quarterTurns = 0
        for property in properties {
            let fields = file.read(at: property.contentStart, count: 12)
            switch property.type {
            case "ispe":
                guard let width = fields.uint32(at: 4), let height = fields.uint32(at: 8) else { continue }
                size = PixelSize(width: Int(width), height: Int(height))
            case "irot": quarterTurns = fields.slice(at: 0, count: 1)?.first.map { Int($0 & 3) } ?? 0
            case "clap": return nil
            default: continue
            }
        }
        return quarterTurns % 2 == 1 ? size?.transposed : size
    }

    /// The bits per sample a `pixi` (the deepest channel), `hvcC` (luma or chroma) or `av1C`
    /// (8, 10 or 12) property states; nil for other properties.
    private static func bitDepth(of property: ISOBox, in file: FileBytes) -> Int? {
        switch property.type {
        case "pixi":
            let fields = file.read(at: property.contentStart, count: 4 + 256)
            guard let count = fields.slice(at: 4, count: 1)?.first, let depths = fields.slice(at: 5, count: Int(count))
            else { return nil }
            return depths.max().map(Int.init)
        case "hvcC":
            guard let depths = file.read(at: property.contentStart, count: 19).slice(at: 17, count: 2) else {
                return nil
            }
            return depths.map { Int($0 & 7) + 8 }.max()
        case "av1C":
            guard let flags = file.read(at: property.contentStart, count: 3).slice(at: 2, count: 1)?.first else {
                return nil
            }
            return flags & 0x40 == 0 ? 8 : flags & 0x20 == 0 ? 10 : 12
        default:
            return nil
        }
    }

    /// The item id `pitm` names (a full box: 16 bits in version 0, else 32).
    private static func primaryItem(_ box: BoundedBytes) -> UInt32? {
        box.bytes.first == 0 ? box.uint16(at: 4).map(UInt32.init) : box.uint32(at: 4)
    }

    /// The ids and types of the `infe` entries of an `iinf` box (versions 2 and 3 name a type;
    /// version 2 has 16-bit ids, version 3 32-bit ones).
    private static func items(in box: BoundedBytes) -> [(id: UInt32, type: String)] {
        let start = box.bytes.first == 0 ? 6 : 8
        guard start <= box.bytes.count else { return [] }
        let entries = FileBytes(Array(box.bytes.dropFirst(start)))
        var items: [(id: UInt32, type: String)] = []
        for entry in ISOBox.boxes(in: entries, range: 0..<entries.size) where entry.type == "infe" {
            let fields = entries.read(at: entry.contentStart, count: 14)
            let id: UInt32?
            let typeOffset: Int
            switch fields.bytes.first {
            case 2: (id, typeOffset) = (fields.uint16(at: 4).map(UInt32.init), 8)
            case 3: (id, typeOffset) = (fields.uint32(at: 4), 10)
            default: continue
            }
            if let id, let type = fields.slice(at: typeOffset, count: 4) {
                items.append((id, String(decoding: type, as: UTF8.self)))
            }
        }
        return items
    }

    /// The (1-based) property indices `ipma` associates with `item`.
    private static func propertyIndices(of item: UInt32, in box: BoundedBytes) -> [Int] {
        guard let version = box.bytes.first, let flags = box.uint32(at: 0).map({ $0 & 0xFF_FFFF }),
            let count = box.uint32(at: 4)
        else { return [] }
        let idSize = version < 1 ? 2 : 4
        let indexSize = flags & 1 == 1 ? 2 : 1
        var position = 8
        for _ in 0..<count {
            guard let id = idSize == 2 ? box.uint16(at: position).map(UInt32.init) : box.uint32(at: position),
                let associations = box.slice(at: position + idSize, count: 1)?.first.map(Int.init),
                box.range(at: position + idSize + 1, count: associations * indexSize) != nil
            else { return [] }
            let first = position + idSize + 1
            position = first + associations * indexSize
            guard id == item else { continue }
            return (0..<associations).compactMap { index in
                indexSize == 2
                    ? box.uint16(at: first + 2 * index).map { Int($0 & 0x7FFF) }
                    : box.slice(at: first + index, count: 1)?.first.map { Int($0 & 0x7F) }
            }
        }
        return []
    }
}
