import Foundation
import Testing
import Thumbs
import ThumbsCoreTestSupport
import ThumbsTestSupport

/// `thumbs render --hdr gainmap` over a library (a warm into a folder): gain-map JPEGs for
/// exactly the files a probe calls HDR.
@Suite struct RenderCommandGainMapTests {
    let folder = TemporaryFolder()

    @Test(
        .enabled(if: SharedPhotos.isPresent, SharedPhotos.skipReason),
        .enabled(if: GeneratedMedia.hasAvifenc, GeneratedMedia.avifencSkipReason),
        .enabled(if: GeneratedMedia.python != nil, GeneratedMedia.hdrSkipReason))
    func exactlyTheHDRFilesGetGainMaps() throws {
        let generated = folder.path + "/generated"
        try FileManager.default.createDirectory(atPath: generated, withIntermediateDirectories: true)
        for (transfer, cicp) in [("pq", "9/16/9"), ("hlg", "9/18/9")] {
            _ = try HDRPattern.write(to: folder.path + "/\(transfer).png", transfer: transfer)
            try GeneratedMedia.avifenc([
                "-d", "10", "-y", "444", "--cicp", cicp, folder.path + "/\(transfer).png",
                generated + "/\(transfer).avif",
            ])
        }
        let output = folder.path + "/out"
        let outcome = try ThumbsProcess.run([
            "render", SharedPhotos.root.path, generated, "--size", "128x128", "--hdr", "gainmap", "-o", output + "/",
        ])
        // The shared photos include broken files: each gets its line, the rest are rendered.
        #expect([0, 1].contains(outcome.status), "\(outcome.standardError)")

        var withGainMaps: Set<String> = [], hdr: Set<String> = []
        for (root, name) in [(SharedPhotos.root.path, "photos"), (generated, "generated")] {
            let files = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
            for relative in files {
                let source = root + "/" + relative
                guard let properties = try? VipsRenderer().probe(source) else { continue }
                let key = name + "/" + relative
                if properties.mediaSubtypes.contains(.photoHDR) { hdr.insert(key) }
                let rendered = output + "/" + key + ".128x128-fit.jpg"
                guard let bytes = FileManager.default.contents(atPath: rendered).map(Array.init) else { continue }
                if UltraHDRJPEG.gainMapRange(in: bytes, length: bytes.count) != nil { withGainMaps.insert(key) }
            }
        }
        #expect(withGainMaps == hdr)
        #expect(
            hdr.isSuperset(of: [
                "photos/phone/PXL_ultrahdr_01.jpg", "photos/phone/iphone_13_pro_max.HEIC",
                "photos/exports/seine_hdr_srgb.avif", "photos/exports/seine_sdr_gainmap_srgb.jpg",
                "generated/pq.avif", "generated/hlg.avif",
            ]), "\(hdr)")
    }
}
