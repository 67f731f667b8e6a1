/// The layout of an Ultra HDR JPEG (Google's Ultra HDR image format 1.0): a primary JPEG, the
/// SDR picture every viewer shows, followed by a gain map JPEG, which an HDR screen's viewer
/// applies to it. The primary says so in an XMP packet (`hdrgm:Version` and a GContainer
/// directory of the two pictures) and locates the gain map in an MPF index (CIPA DC-007's
/// multi-picture format); the gain map's own XMP packet holds its metadata (`hdrgm:GainMapMin`,
/// `GainMapMax`, `Gamma`, `OffsetSDR`, `OffsetHDR`, `HDRCapacityMin`, `HDRCapacityMax`).
///
/// Pure bytes, no codec: the imaging layer encodes the two pictures, the server reads what a
/// cached thumbnail's headroom is.
public enum UltraHDRJPEG {
    /// The XMP packet's APP1 signature.
    static let xmpSignature = Array("http://ns.adobe.com/xap/1.0/\0".utf8)
    /// The MPF index's APP2 signature.
    static let mpfSignature = Array("MPF\0".utf8)
    /// ISO 21496-1's APP2 signature: gain-map metadata in binary form (the versions alone in
    /// the primary picture, the whole metadata in the gain map).
    public static let iso21496Signature = Array("urn:iso:std:iso:ts:21496:-1\0".utf8)
    /// The versions ISO 21496-1's primary segment holds: the minimum reader version and the
    /// writer's, both 0.
    public static let iso21496Version: [UInt8] = [0, 0, 0, 0]

    /// `primary` and `gainMap` (each a whole JPEG file) as one Ultra HDR JPEG, the gain map's
    /// metadata in `gainMapXMP` (an XMP packet) and in `gainMapISO21496` (ISO 21496-1's binary
    /// form, after its signature); nil when either is not a JPEG, or too large for the MPF
    /// index's 32-bit offsets.
    public static func assemble(
        primary: [UInt8], gainMap: [UInt8], gainMapXMP: String, gainMapISO21496: [UInt8]
    ) -> [UInt8]? {
        let gainMapSegments = [
            segment(0xE1, xmpSignature + Array(gainMapXMP.utf8)), segment(0xE2, iso21496Signature + gainMapISO21496),
        ]
        guard let gainMapFile = inserting(gainMapSegments, into: gainMap) else { return nil }
        let directory = segment(0xE1, xmpSignature + Array(primaryXMP(gainMapLength: gainMapFile.count).utf8))
        let version = segment(0xE2, iso21496Signature + iso21496Version)
        // The MPF segment's length does not depend on the numbers in it: lay it out once to
        // learn where it lands, then with the offsets.
        let placeholder = segment(0xE2, mpfIndex(primaryLength: 0, gainMapLength: 0, gainMapOffset: 0))
        guard let laidOut = inserting([directory, version, placeholder], into: primary),
            let mpfStart = position(ofSegmentWith: mpfSignature, marker: 0xE2, in: laidOut),
            laidOut.count + gainMapFile.count <= Int(UInt32.max)
        else { return nil }
        // Offsets count from the MPF header's byte-order mark, right after its signature.
        let header = mpfStart + 4 + mpfSignature.count
        let index = segment(
            0xE2,
            mpfIndex(
                primaryLength: laidOut.count, gainMapLength: gainMapFile.count, gainMapOffset: laidOut.count - header))
        guard let assembled = inserting([directory, version, index], into: primary) else { return nil }
        return assembled + gainMapFile
    }

    /// Where the gain map JPEG lies in a file of `length` bytes that starts with `head` (its
    /// segments up to its MPF index's end, or more), by the index's second entry; nil when it
    /// has no such index, or the entry does not lie within the file.
    public static func gainMapRange(in head: [UInt8], length: Int) -> Range<Int>? {
        guard let start = position(ofSegmentWith: mpfSignature, marker: 0xE2, in: head),
            let segmentLength = read16(head, start + 2, bigEndian: true)
        else { return nil }
        let payloadEnd = start + 2 + Int(segmentLength)
        let header = start + 4 + mpfSignature.count
        guard payloadEnd <= head.count, header + 8 <= payloadEnd else { return nil }
        let bigEndian = head[header] == 0x4D
        guard head[header + 1] == head[header], bigEndian || head[header] == 0x49,
            let ifd = read32(head, header + 4, bigEndian: bigEndian).map(Int.init),
            let count = read16(head, header + ifd, bigEndian: bigEndian)
        else { return nil }
        for entry in 0..<Int(count) {
            let at = header + ifd + 2 + entry * 12
            guard at + 12 <= payloadEnd, let tag = read16(head, at, bigEndian: bigEndian) else { return nil }
            guard tag == 0xB002 else { continue }
            // The second of the 16-byte entries: attributes, size, offset, dependents.
            guard let entries = read32(head, at + 8, bigEndian: bigEndian).map(Int.init),
                (read32(head, at + 4, bigEndian: bigEndian) ?? 0) >= 32, header + entries + 32 <= payloadEnd,
                let size = read32(head, header + entries + 20, bigEndian: bigEndian).map(Int.init),
                let offset = read32(head, header + entries + 24, bigEndian: bigEndian).map(Int.init),
                offset > 0, size >= 4, header + offset + size <= length
            else { return nil }
            return header + offset..<header + offset + size
        }
        return nil
    }

    /// The XMP packet of a JPEG (its APP1 segment of Adobe's signature), before its first scan.
    public static func xmpPacket(in jpeg: [UInt8]) -> [UInt8]? {
        payload(ofSegmentWith: xmpSignature, marker: 0xE1, in: jpeg).map(Array.init)
    }

    /// A JPEG's ISO 21496-1 payload (its APP2 segment of that signature, after it), before its
    /// first scan.
    public static func iso21496Payload(in jpeg: [UInt8]) -> [UInt8]? {
        payload(ofSegmentWith: iso21496Signature, marker: 0xE2, in: jpeg).map(Array.init)
    }

    /// How many stops above SDR white the picture reaches (its gain map's `hdrgm:HDRCapacityMax`),
    /// when `file` is an Ultra HDR JPEG whose gain map states it; nil otherwise.
    public static func headroom(of file: [UInt8]) -> Double? {
        guard let range = gainMapRange(in: file, length: file.count), let text = xmpPacket(in: Array(file[range]))
        else { return nil }
        for opening in ["hdrgm:HDRCapacityMax=\"", "<hdrgm:HDRCapacityMax>"].map({ Array($0.utf8) }) {
            guard let found = firstIndex(of: opening, in: text) else { continue }
            let value = text[(found + opening.count)...].prefix { $0 != UInt8(ascii: "\"") && $0 != UInt8(ascii: "<") }
            let digits = String(decoding: value.filter { $0 > 0x20 }, as: UTF8.self)
            if let stops = Double(digits), stops.isFinite { return stops }
        }
        return nil
    }

    /// Where `pattern` first occurs in `bytes`.
    private static func firstIndex(of pattern: [UInt8], in bytes: [UInt8]) -> Int? {
        guard !pattern.isEmpty, bytes.count >= pattern.count else { return nil }
        return (0...(bytes.count - pattern.count)).first { bytes[$0..<$0 + pattern.count].elementsEqual(pattern) }
    }

    /// The primary's XMP packet: the version, and the directory of the two pictures.
    static func primaryXMP(gainMapLength: Int) -> String {
        """
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="Thumbs"><rdf:RDF \
        xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about="" \
        xmlns:hdrgm="http://ns.adobe.com/hdr-gain-map/1.0/" \
        xmlns:Container="http://ns.google.com/photos/1.0/container/" \
        xmlns:Item="http://ns.google.com/photos/1.0/container/item/" hdrgm:Version="1.0">\
        <Container:Directory><rdf:Seq><rdf:li rdf:parseType="Resource"><Container:Item \
        Item:Semantic="Primary" Item:Mime="image/jpeg"/></rdf:li><rdf:li rdf:parseType="Resource">\
        <Container:Item Item:Semantic="GainMap" Item:Mime="image/jpeg" Item:Length="\(gainMapLength)"/>\
        </rdf:li></rdf:Seq></Container:Directory></rdf:Description></rdf:RDF></x:xmpmeta>
        """
    }

    /// The MPF index (big-endian): its version, two pictures, and their entries: the primary
    /// (the representative baseline picture, at 0) and the gain map (after it).
    static func mpfIndex(primaryLength: Int, gainMapLength: Int, gainMapOffset: Int) -> [UInt8] {
        var bytes = mpfSignature + [0x4D, 0x4D, 0x00, 0x2A] + be32(8)
        bytes += be16(3)
        bytes += be16(0xB000) + be16(7) + be32(4) + Array("0100".utf8)  // MPFVersion
        bytes += be16(0xB001) + be16(4) + be32(1) + be32(2)  // NumberOfImages
        // MPEntry: 2 × 16 bytes, after the IFD (8 + 2 + 3 × 12 + 4 = 50 from the header).
        bytes += be16(0xB002) + be16(7) + be32(32) + be32(50)
        bytes += be32(0)  // no next IFD
        // Each entry: attributes, size, offset, two dependent entries.
        bytes += be32(0x2003_0000) + be32(UInt32(primaryLength)) + be32(0) + be16(0) + be16(0)
        bytes += be32(0) + be32(UInt32(gainMapLength)) + be32(UInt32(gainMapOffset)) + be16(0) + be16(0)
        return bytes
    }

    /// A marker segment: marker, length, payload.
    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(UInt16(payload.count + 2)) + payload
    }

    /// `segments` inserted into `jpeg` after its SOI (and its JFIF APP0, which must come first);
    /// nil when it is not a JPEG or a segment is over 64 KiB.
    static func inserting(_ segments: [[UInt8]], into jpeg: [UInt8]) -> [UInt8]? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8, segments.allSatisfy({ $0.count <= 0xFFFF + 2 })
        else { return nil }
        var at = 2
        if jpeg[2] == 0xFF, jpeg[3] == 0xE0, let length = read16(jpeg, 4, bigEndian: true) {
            at = min(jpeg.count, 4 + Int(length))
        }
        return Array(jpeg[..<at]) + segments.flatMap { $0 } + Array(jpeg[at...])
    }

    /// Where the segment of `marker` whose payload starts with `signature` starts (at its 0xFF),
    /// among the segments before the first scan.
    static func position(ofSegmentWith signature: [UInt8], marker: UInt8, in jpeg: [UInt8]) -> Int? {
        guard jpeg.count >= 4, jpeg[0] == 0xFF, jpeg[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= jpeg.count, jpeg[at] == 0xFF, jpeg[at + 1] != 0xDA, jpeg[at + 1] != 0xD9,
            let length = read16(jpeg, at + 2, bigEndian: true), length >= 2
        {
            let payload = at + 4
            if jpeg[at + 1] == marker, payload + signature.count <= jpeg.count,
                jpeg[payload..<payload + signature.count].elementsEqual(signature)
            {
                return at
            }
            at += 2 + Int(length)
        }
        return nil
    }

    /// The payload after `signature` of the segment ``position(ofSegmentWith:marker:in:)`` finds.
    static func payload(ofSegmentWith signature: [UInt8], marker: UInt8, in jpeg: [UInt8]) -> ArraySlice<UInt8>? {
        guard let at = position(ofSegmentWith: signature, marker: marker, in: jpeg),
            let length = read16(jpeg, at + 2, bigEndian: true), at + 2 + Int(length) <= jpeg.count
        else { return nil }
        return jpeg[at + 4 + signature.count..<at + 2 + Int(length)]
    }

    private static func be16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
    private static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func read16(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt16? {
        guard at >= 0, at + 2 <= bytes.count else { return nil }
        let (a, b) = (UInt16(bytes[at]), UInt16(bytes[at + 1]))
        return bigEndian ? a << 8 | b : b << 8 | a
    }

    private static func read32(_ bytes: [UInt8], _ at: Int, bigEndian: Bool) -> UInt32? {
        guard let high = read16(bytes, bigEndian ? at : at + 2, bigEndian: bigEndian),
            let low = read16(bytes, bigEndian ? at + 2 : at, bigEndian: bigEndian)
        else { return nil }
        return UInt32(high) << 16 | UInt32(low)
    }
}
