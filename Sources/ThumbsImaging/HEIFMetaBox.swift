/// What a HEIF (HEIC, AVIF) file's `meta` box says of its items beyond the primary picture,
/// read from box headers through the file's descriptor, decoding nothing: the auxiliary
/// pictures' types (`auxC`: depth, portrait mattes, gain maps), the items' types (a `tmap`
/// item is an ISO 21496-1 gain-map picture) and the primary item's colour transfer (its
/// `colr` box of type `nclx`). Every count and offset is checked against the boxes that hold
/// it; what does not fit is left out.
package struct HEIFMetaBox: Sendable, Hashable {
    /// The `aux_type` of every `auxC` property ("urn:mpeg:hevc:2015:auxid:2",
    /// "urn:com:apple:photo:2018:aux:portraiteffectsmatte"…).
    package var auxiliaryTypes: [String] = []
    /// The four-character type of every item ("hvc1", "grid", "Exif", "tmap"…).
    package var itemTypes: Set<String> = []
    /// The transfer characteristics (ITU-T H.273) of the primary item's `nclx` colour: 16 is PQ,
    /// 18 HLG.
    package var primaryTransferCharacteristics: Int?

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
        if let itemInfo = contents("iinf") { itemTypes = Self.itemTypes(in: itemInfo) }
        guard let properties = children.first(where: { $0.type == "iprp" }) else { return }
        let propertyBoxes = ISOBox.boxes(in: file, range: properties.contents)
        guard let container = propertyBoxes.first(where: { $0.type == "ipco" }) else { return }
        let list = ISOBox.boxes(in: file, range: container.contents)
        for box in list where box.type == "auxC" && box.end - box.contentStart <= Self.largestBox {
            let bytes = file.read(at: box.contentStart, count: Int(box.end - box.contentStart)).bytes.dropFirst(4)
            auxiliaryTypes.append(String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self))
        }
        guard let primary = contents("pitm").flatMap(Self.primaryItem),
            let associations = propertyBoxes.first(where: { $0.type == "ipma" }),
            associations.end - associations.contentStart <= Self.largestBox
        else { return }
        let indices = Self.propertyIndices(
            of: primary,
            in: file.read(at: associations.contentStart, count: Int(associations.end - associations.contentStart)))
        for index in indices where index >= 1 && index <= list.count && list[index - 1].type == "colr" {
            let colour = file.read(at: list[index - 1].contentStart, count: 8)
            guard colour.matches("nclx".utf8, at: 0), let transfer = colour.uint16(at: 6) else { continue }
            primaryTransferCharacteristics = Int(transfer)
        }
    }

    /// The item id `pitm` names (a full box: 16 bits in version 0, else 32).
    private static func primaryItem(_ box: BoundedBytes) -> UInt32? {
        box.bytes.first == 0 ? box.uint16(at: 4).map(UInt32.init) : box.uint32(at: 4)
    }

    /// The types of the `infe` entries of an `iinf` box (versions 2 and 3 name a type).
    private static func itemTypes(in box: BoundedBytes) -> Set<String> {
        let start = box.bytes.first == 0 ? 6 : 8
        guard start <= box.bytes.count else { return [] }
        let entries = FileBytes(Array(box.bytes.dropFirst(start)))
        var types: Set<String> = []
        for entry in ISOBox.boxes(in: entries, range: 0..<entries.size) where entry.type == "infe" {
            let fields = entries.read(at: entry.contentStart, count: 12)
            let typeOffset: Int
            switch fields.bytes.first {
            case 2: typeOffset = 8
            case 3: typeOffset = 10
            default: continue
            }
            if let type = fields.slice(at: typeOffset, count: 4) { types.insert(String(decoding: type, as: UTF8.self)) }
        }
        return types
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
