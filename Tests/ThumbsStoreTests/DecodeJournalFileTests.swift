import Foundation
import SystemPackage
import Testing
import ThumbsCore
import ThumbsCoreTestSupport
import ThumbsStore

/// The decode journal's files. A journal a process died with is tested through the real
/// command (WarmCommandTests); here, what one process sees of its own and of damaged files.
@Suite struct DecodeJournalFileTests {
    let folder = TemporaryFolder()
    var directory: FilePath { FilePath(folder.path).appending("decoding") }

    private func location(_ name: String) -> ImageLocation {
        ImageLocation(
            root: "/photos", relativePath: FilePath(name),
            expectedFingerprint: FileFingerprint(size: 1234, modificationTimeNanoseconds: 5678))
    }

    @Test func aLiveJournalIsNoLeftoverAndALeftOneIsRemovedOnceRead() throws {
        let journal = try DecodeJournalFile(directory: directory)
        let noted = journal.noting(location("a.jpg")) { DecodeJournalFile.leftovers(in: directory) }
        #expect(noted.crashed.isEmpty, "a live process's journal is locked, not read")
        // Copies of a journal holding a note, as a dead process leaves it: nobody holds their
        // lock. A note left as it was written was a decode under way when something else ended
        // the process; one whose first bytes a fatal signal's handler made "TDJC", the culprit.
        let interrupted = directory.appending("1"), crashed = directory.appending("2")
        try journal.noting(location("b.jpg")) {
            let own = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.string).first)
            var bytes = try Data(contentsOf: URL(fileURLWithPath: directory.appending(own).string))
            try bytes.write(to: URL(fileURLWithPath: interrupted.string))
            bytes[3] = UInt8(ascii: "C")
            try bytes.write(to: URL(fileURLWithPath: crashed.string))
        }
        let leftovers = DecodeJournalFile.leftovers(in: directory)
        #expect(leftovers.crashed == [location("b.jpg")])
        #expect(FileManager.default.fileExists(atPath: crashed.string), "kept until what it holds is kept elsewhere")
        leftovers.discard()
        #expect(!FileManager.default.fileExists(atPath: interrupted.string), "a journal read is removed")
        #expect(!FileManager.default.fileExists(atPath: crashed.string))
        #expect(DecodeJournalFile.leftovers(in: directory).crashed.isEmpty)
    }

    @Test func aNoteIsWithdrawnWhenTheDecodeEndsEvenByAnError() throws {
        let journal = try DecodeJournalFile(directory: directory)
        #expect(throws: ImagingError.emptyFile) {
            try journal.noting(location("a.jpg")) { () throws(ImagingError) in throw .emptyFile }
        }
        // Marked as a fatal signal's handler marks a note: the note was withdrawn all the same.
        let own = try #require(try FileManager.default.contentsOfDirectory(atPath: directory.string).first)
        var bytes = try Data(contentsOf: URL(fileURLWithPath: directory.appending(own).string))
        bytes[3] = UInt8(ascii: "C")
        try bytes.write(to: URL(fileURLWithPath: directory.appending("1").string))
        #expect(DecodeJournalFile.leftovers(in: directory).crashed.isEmpty)
    }

    @Test func damagedOrOddJournalsYieldNothingAndNeverBlock() throws {
        try FileManager.default.createDirectory(atPath: directory.string, withIntermediateDirectories: true)
        var noise = [UInt8](repeating: 0, count: 20_000)
        for index in noise.indices { noise[index] = UInt8(truncatingIfNeeded: index &* 2_654_435_761 >> 7) }
        // The magic followed by lengths past the slot.
        noise.replaceSubrange(0..<12, with: [0x54, 0x44, 0x4A, 0x43, 0xFF, 0xFF, 0xFF, 0xFF, 0, 0, 0, 9])
        try Data(noise).write(to: URL(fileURLWithPath: directory.appending("2").string))
        #expect(mkfifo(directory.appending("3").string, 0o600) == 0)
        #expect(DecodeJournalFile.leftovers(in: directory).crashed.isEmpty)
    }
}
