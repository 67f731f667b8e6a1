import Glibc
import Testing
import ThumbsStore

@Suite struct StoreErrorTests {
    @Test func aResultCodeSaysWhichFamilyItIsFrom() {
        #expect(StoreError.ResultCode.mapFull.family == .lmdb)
        #expect(StoreError.ResultCode.corrupted.family == .lmdb)
        #expect(StoreError.ResultCode.noSpace.family == .system)
        #expect(StoreError.ResultCode(rawValue: EACCES) == .permissionDenied)
        #expect(StoreError.ResultCode.detectedByStore.family == .store)
    }

    @Test func aResultCodeIsDescribedByItsLibrary() {
        #expect(StoreError.ResultCode.mapFull.description.hasPrefix("MDB_MAP_FULL"))
        #expect(StoreError.ResultCode.noSpace.description == "No space left on device")
        #expect(StoreError.ResultCode.detectedByStore.description == "detected by the store")
    }

    @Test func anErrorNamesItsCodeUnlessTheStoreDetectedIt() {
        let full = StoreError(resultCode: .mapFull, message: "full", operation: "put")
        #expect(full.description == "put: full (\(StoreError.ResultCode.mapFull.rawValue))")
        #expect(!full.isDamaged && !full.isNoSpace)
        let damaged = StoreError(resultCode: .detectedByStore, message: "a short record", operation: "read")
        #expect(damaged.description == "read: a short record")
        #expect(StoreError(resultCode: .pageNotFound, message: "", operation: "get").isDamaged)
        #expect(StoreError(resultCode: .noSpace, message: "", operation: "commit").isNoSpace)
    }
}
