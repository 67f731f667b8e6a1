import Foundation
import Testing
import ThumbsCoreTestSupport
@testable import ThumbsLibrary

@Suite struct LibraryShardTests {
    let folder = TemporaryFolder()
    typealias L = LibraryFixtures

    @Test func parsesKOfNAndRefusesWhatIsNotOne() throws {
        let shard = try LibraryShard(parsing: "2/4")
        #expect(shard.index == 2 && shard.count == 4 && shard.description == "2/4")
        for text in ["4/4", "-1/4", "0/0", "1", "a/b", "1/2/3", "", "/4"] {
            #expect(throws: LibraryShard.Invalid.self, "\(text)") { try LibraryShard(parsing: text) }
        }
    }

    /// The shard is a function of the asset id alone, pinned here: a change would scatter every
    /// shard cache already written.
    @Test func theSameAssetLandsInTheSameShardEverywhere() throws {
        let id = AssetID.make(root: "/srv/photos", relativePath: "2024/summer/IMG_0001.JPG")
        #expect(LibraryShard.shard(of: "0123456789abcdef", count: 4) == 0)
        #expect(LibraryShard.shard(of: "fedcba9876543210", count: 7) == 2)
        let owners = try (0..<4).filter { try LibraryShard(index: $0, count: 4).contains(assetID: id) }
        #expect(owners.count == 1)
    }

    /// Ids that differ only in their last characters (photos named in sequence) still spread
    /// evenly: no shard holds less than half or more than twice its share.
    @Test func sequentialNamesSpreadEvenly() {
        var counts = [Int](repeating: 0, count: 8)
        for number in 0..<4000 {
            let id = AssetID.make(root: "/srv/photos", relativePath: String(format: "DSC_%04d.JPG", number))
            counts[LibraryShard.shard(of: id, count: 8)] += 1
        }
        #expect(counts.allSatisfy { (250...1000).contains($0) }, "\(counts)")
    }

    /// The shards of a library are disjoint, together are the library, and each reads (probes)
    /// only its own files: the others are listed, never opened.
    @Test func shardsPartitionTheLibraryAndReadOnlyTheirOwnFiles() async throws {
        let photo = L.jpeg()
        for index in 0..<60 { try folder.write(photo, to: "library/d\(index % 4)/p\(index).jpg") }
        let whole = try await L.library(folder).allAssets()
        var seen: [String: Int] = [:]
        for index in 0..<3 {
            let shard = try LibraryShard(index: index, count: 3)
            let part = PhotoLibrary(
                roots: [folder.path + "/library"], includeHidden: false, renderer: L.renderer, store: nil,
                shard: shard)
            let batch = try await part.allAssets()
            #expect(batch.inspected == batch.assets.count, "only the shard's own files are read")
            #expect(!batch.assets.isEmpty)
            for asset in batch.assets {
                #expect(shard.contains(assetID: asset.id))
                seen[asset.id, default: 0] += 1
            }
        }
        #expect(Set(seen.keys) == Set(whole.assets.map(\.id)))
        #expect(seen.values.allSatisfy { $0 == 1 })
    }
}
