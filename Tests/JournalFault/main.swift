// A process that faults while it decodes, for the tests of the decode journal: a real SIGSEGV
// (a write to an address nothing is mapped at), as a fault in a decoding library raises it.
//
//   thumbs-journal-fault CACHE ROOT MODE FILE...
//
// Opens the journal of the cache at CACHE as the thumbs command does, notes each FILE (a path
// beneath ROOT) as decoded by a thread of its own, then faults: with MODE `noting`, on the thread
// of the last FILE; with MODE `other`, on a thread with no note (as a libvips worker thread would).

import Foundation
import SystemPackage
import ThumbsCore
import ThumbsStore

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count >= 4 else {
    FileHandle.standardError.write(Data("usage: thumbs-journal-fault CACHE ROOT noting|other FILE...\n".utf8))
    exit(2)
}
let (cache, root, mode, files) = (arguments[0], arguments[1], arguments[2], Array(arguments[3...]))
try FileManager.default.createDirectory(atPath: cache, withIntermediateDirectories: true)
let journal = try DecodeJournalFile(directory: DecodeJournalFile.directory(ofCache: cache))
let othersNoted = DispatchSemaphore(value: 0)

@Sendable func fault() -> Never {
    UnsafeMutablePointer<Int>(bitPattern: 64)!.pointee = 1
    fatalError("the write to address 64 did not fault")
}

for (index, file) in files.enumerated() {
    let location = ImageLocation(
        root: FilePath(root), relativePath: FilePath(file),
        expectedFingerprint: try FileFingerprint(path: root + "/" + file))
    let faultsHere = mode == "noting" && index == files.count - 1
    Thread.detachNewThread {
        // The thread that faults notes its file last, once every other note is written.
        if faultsHere { for _ in 0..<files.count - 1 { othersNoted.wait() } }
        journal.noting(location) {
            if faultsHere { fault() }
            othersNoted.signal()
            while true { pause() }
        }
    }
}
if mode == "other" {
    for _ in files { othersNoted.wait() }
    Thread.detachNewThread { fault() }
}
while true { pause() }
