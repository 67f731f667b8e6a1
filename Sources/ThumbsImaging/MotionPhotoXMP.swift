/// What a motion photo's XMP packet says of the movie after its picture, in Google's two
/// formats: Motion Photo 1.0 (`GCamera:MotionPhoto="1"` and a `Container:Directory` whose item
/// of semantic "MotionPhoto" has the movie's `Item:Length`) and the older MicroVideo
/// (`GCamera:MicroVideo="1"`, `GCamera:MicroVideoOffset`). Both put the movie at the file's
/// end. The packet is read as ``XMPPacket`` reads one.
package struct MotionPhotoXMP: Sendable {
    static let cameraNamespace = "http://ns.google.com/photos/1.0/camera/"
    static let containerNamespace = "http://ns.google.com/photos/1.0/container/"
    static let itemNamespace = "http://ns.google.com/photos/1.0/container/item/"

    private let packet: XMPPacket

    package init(_ packet: [UInt8]) {
        self.packet = XMPPacket(packet)
    }

    /// How many bytes at the end of the file the movie takes, when the packet says there is one.
    package var trailingMovieLength: UInt64? {
        let camera = packet.prefix(of: Self.cameraNamespace, else: "GCamera")
        if packet.value(of: camera + ":MotionPhoto", in: packet.whole) == "1" {
            return packet.directoryItemLength(semantic: "MotionPhoto").flatMap(Self.length)
        }
        if packet.value(of: camera + ":MicroVideo", in: packet.whole) == "1" {
            return packet.value(of: camera + ":MicroVideoOffset", in: packet.whole).flatMap(Self.length)
        }
        return nil
    }

    private static func length(_ text: String) -> UInt64? {
        UInt64(text).flatMap { $0 > 0 ? $0 : nil }
    }
}

extension XMPPacket {
    /// Whether Google's `Container:Directory` has an item whose `Item:Semantic` is `semantic`
    /// ("MotionPhoto", "GainMap", "Depth"…).
    func hasDirectoryItem(semantic: String) -> Bool {
        directoryItem(semantic: semantic) != nil
    }

    /// The `Item:Length` of the first directory item whose `Item:Semantic` is `semantic`.
    func directoryItemLength(semantic: String) -> String? {
        directoryItem(semantic: semantic).flatMap { value(of: $0.itemPrefix + ":Length", in: $0.range) }
    }

    private func directoryItem(semantic: String) -> (range: Range<Int>, itemPrefix: String)? {
        let container = prefix(of: MotionPhotoXMP.containerNamespace, else: "Container")
        let item = prefix(of: MotionPhotoXMP.itemNamespace, else: "Item")
        return elements(named: container + ":Item").first { value(of: item + ":Semantic", in: $0) == semantic }
            .map { ($0, item) }
    }
}
