// A second process for the store's tests: writes, reads or checks batches of thumbnails in a
// cache folder, so that tests can run two real processes on one cache and kill one mid-write.
//
//   thumbs-store-worker write PATH BATCHES SIZE [MAPBYTES]   prints "committed B" after batch B
//   thumbs-store-worker read PATH BATCHES SIZE               waits for every entry, checks each
//   thumbs-store-worker check PATH BATCHES SIZE              checks entries of batches 0..<BATCHES
//
// Exit status 0 when everything held, 1 with a line on stderr otherwise.

import Foundation
import ThumbsCore
import ThumbsStore

let arguments = CommandLine.arguments
guard arguments.count >= 5, let batches = Int(arguments[3]), let size = Int(arguments[4]) else {
    FileHandle.standardError.write(
        Data("usage: thumbs-store-worker write|read|check PATH BATCHES SIZE [MAPBYTES]\n".utf8))
    exit(2)
}
let mode = arguments[1], path = arguments[2]
let rendition = RenditionSpec(size: PixelSize(width: 160, height: 160), contentMode: .aspectFill)

func key(_ batch: Int, _ index: Int) -> ThumbnailKey {
    ThumbnailKey(
        assetID: "asset-\(batch)-\(index)",
        fingerprint: FileFingerprint(size: UInt64(batch), modificationTimeNanoseconds: Int64(index)),
        rendition: rendition)
}

/// 20 KB of bytes that only this (batch, index) produces.
func payload(_ batch: Int, _ index: Int) -> [UInt8] {
    (0..<20_000).map { UInt8(truncatingIfNeeded: batch &* 31 &+ index &* 7 &+ $0) }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("thumbs-store-worker: \(message)\n".utf8))
    exit(1)
}

var configuration = StoreConfiguration(path: path)
if arguments.count >= 6, let mapBytes = Int(arguments[5]) { configuration.initialMapSize = mapBytes }
let store: ThumbnailStore
do { store = try ThumbnailStore(configuration: configuration) } catch { fail("open: \(error)") }

func entryHolds(_ batch: Int, _ index: Int) throws -> Bool? {
    guard let stored = try store.thumbnail(for: key(batch, index)) else { return nil }
    return stored.thumbnail.bytes == payload(batch, index)
}

switch mode {
case "write":
    for batch in 0..<batches {
        let entries = (0..<size).map { index in
            ThumbnailStore.ThumbnailEntry(
                key: key(batch, index),
                thumbnail: Thumbnail(
                    bytes: payload(batch, index), pixelSize: PixelSize(width: 160, height: 160), format: .jpeg))
        }
        do { try await store.putThumbnails(entries) } catch { fail("put batch \(batch): \(error)") }
        print("committed \(batch)")
        fflush(nil)
    }
case "read":
    _ = try? store.containsThumbnail(for: key(0, 0))
    print("reading")  // a reader slot is taken from here on
    fflush(nil)
    let deadline = Date().addingTimeInterval(120)
    for batch in 0..<batches {
        for index in 0..<size {
            while true {
                do {
                    if let holds = try entryHolds(batch, index) {
                        if !holds { fail("entry \(batch)/\(index) has the wrong bytes") }
                        break
                    }
                } catch { fail("read \(batch)/\(index): \(error)") }
                if Date() > deadline { fail("entry \(batch)/\(index) never arrived") }
                usleep(1_000)
            }
        }
    }
    do { try await store.flushAccessTimes() } catch { fail("flush: \(error)") }
    print("read \(batches * size) entries")
case "check":
    for batch in 0..<batches {
        for index in 0..<size {
            do {
                switch try entryHolds(batch, index) {
                case nil: fail("entry \(batch)/\(index) of a committed batch is missing")
                case false: fail("entry \(batch)/\(index) has the wrong bytes")
                default: break
                }
            } catch { fail("read \(batch)/\(index): \(error)") }
        }
    }
    do {
        let verification = try store.verify()
        if !verification.isConsistent { fail("verify: \(verification.problems.prefix(3))") }
    } catch { fail("verify: \(error)") }
    print("checked \(batches * size) entries")
default:
    fail("unknown mode \(mode)")
}
