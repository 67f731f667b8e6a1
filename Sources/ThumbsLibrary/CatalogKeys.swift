import Foundation
import SystemPackage
import ThumbsCore
import ThumbsStore
import ThumbsSupport

/// How the catalog lays out its keys, and what of an asset each of its lists holds.
///
/// A group key is list (1 byte) ‖ root hash (8) ‖ group (8); an order key is the group key ‖
/// order (8, smallest first) ‖ asset id (8). Orders are newest first, ties by id, as
/// ``FetchResult`` orders assets.
enum CatalogKeys {
    /// The catalog's lists.
    enum List: UInt8, CaseIterable {
        /// The library as a listing shows it: a burst as the frame that stands for it.
        case library = 1
        /// Every asset, each burst's every frame.
        case everything
        /// A folder's assets (group: its path's hash, as its listing's key has it).
        case folder
        /// A smart album's assets but Recently Added's (group: the album's place in
        /// ``SmartAlbum/allCases``).
        case smartAlbum
        /// A burst's frames (group: the hash of its folder and identifier).
        case burst
        /// A day's assets (group: year × 10,000 + month × 100 + day).
        case day
        /// Every asset by modification time, newest first: Recently Added is its start.
        case added
        /// The root itself: its group record says when a walk of it was last kept whole.
        case root
    }

    /// One place an asset has in the catalog.
    struct Membership: Hashable {
        let group: [UInt8]
        let order: UInt64
        /// Whether it has an entry in the group's order (a hidden burst frame has none in a
        /// folder or smart album; its bytes count there all the same).
        let isListed: Bool
    }

    static func rootHash(_ root: String) -> UInt64 {
        var hash = FNV1a()
        hash.add(root.utf8)
        return hash.value
    }

    static func group(_ list: List, root: String, _ group: UInt64) -> [UInt8] {
        Self.group(list, rootHash: rootHash(root), group)
    }

    static func group(_ list: List, rootHash: UInt64, _ group: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 17)
        writer.u8(list.rawValue)
        writer.u64(rootHash)
        writer.u64(group)
        return writer.bytes
    }

    static func orderKey(_ group: [UInt8], order: UInt64, id: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 33)
        writer.raw(group)
        writer.u64(order)
        writer.u64(id)
        return writer.bytes
    }

    /// An asset id's 16 lowercase hex digits (as ``AssetID`` writes them) as the 8 bytes keys
    /// hold; nil for anything else.
    static func idValue(_ id: String) -> UInt64? {
        guard id.utf8.count == 16, id.utf8.allSatisfy(\.isLowercaseHexDigit) else { return nil }
        return UInt64(id, radix: 16)
    }

    static func idKey(_ id: UInt64) -> [UInt8] {
        var writer = ByteWriter(capacity: 8)
        writer.u64(id)
        return writer.bytes
    }

    /// The id written back as ``AssetID`` writes it.
    static func idText(_ id: UInt64) -> String {
        let digits = String(id, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// Newest first: a later date is a smaller order.
    static func newestFirst(_ date: Date) -> UInt64 {
        let bits = date.timeIntervalSince1970.bitPattern
        // The IEEE bits made to sort as the numbers do, then reversed.
        let ascending = date.timeIntervalSince1970 >= 0 ? bits | (1 << 63) : ~bits
        return ~ascending
    }

    /// The date ``newestFirst(_:)`` made `order` of.
    static func date(ofOrder order: UInt64) -> Date {
        let ascending = ~order
        let bits = ascending & (1 << 63) != 0 ? ascending & ~(1 << 63) : ~ascending
        return Date(timeIntervalSince1970: Double(bitPattern: bits))
    }

    static func dayGroup(_ day: Day) -> UInt64 {
        UInt64(clamping: max(0, day.year * 10_000 + day.month * 100 + day.day))
    }

    static func day(ofGroup group: UInt64) -> Day {
        Day(year: Int(group / 10_000), month: Int(group / 100 % 100), day: Int(group % 100))
    }

    static func burstGroup(_ asset: Asset) -> UInt64? {
        guard let identifier = asset.burstIdentifier else { return nil }
        var hash = FNV1a()
        hash.add(asset.relativeFilePath.removingLastComponent().bytes)
        hash.add(UInt8(0))
        hash.add(identifier.utf8)
        return hash.value
    }

    /// Every place `asset` has in the catalog (`timeZone` decides its day).
    static func memberships(of asset: Asset, timeZone: TimeZone) -> [Membership] {
        let root = rootHash(asset.root), listed = !asset.isHiddenBurstFrame
        let order = newestFirst(asset.date)
        var places = [
            Membership(group: group(.everything, rootHash: root, 0), order: order, isListed: true),
            Membership(
                group: group(
                    .folder, rootHash: root,
                    FolderListing.folderHash(asset.relativeFilePath.removingLastComponent().bytes)),
                order: order, isListed: listed),
            Membership(
                group: group(.added, rootHash: root, 0), order: newestFirst(asset.modificationDate), isListed: true),
        ]
        if listed {
            places.append(Membership(group: group(.library, rootHash: root, 0), order: order, isListed: true))
            places.append(
                Membership(
                    group: group(.day, rootHash: root, dayGroup(asset.day(in: timeZone))), order: order,
                    isListed: true))
        }
        if let burst = burstGroup(asset) {
            places.append(Membership(group: group(.burst, rootHash: root, burst), order: order, isListed: true))
        }
        for (index, album) in SmartAlbum.allCases.enumerated()
        where album != .recentlyAdded && album.contains(asset, now: .distantPast) {
            places.append(
                Membership(group: group(.smartAlbum, rootHash: root, UInt64(index)), order: order, isListed: listed))
        }
        return places
    }
}
