import Foundation
import Testing
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs render` keeps `decodeMemoryBudget`: whatever a file's shape and format, the process's
/// peak resident memory stays within the budget beyond what rendering a tiny image takes, or the
/// file fails `too-much-memory` before it is decoded.
@Suite(.voidedBySanitizer(Sanitizer.memoryReason))
struct RenderMemoryTests {
    struct Fixture: Sendable, CustomStringConvertible {
        let name: String
        let image: PlainImage
        let container: SyntheticImage.Container
        var progressive = false
        var description: String { name }
    }

    /// Shapes at the default pixel limit (100 MP), as wide or tall as each format allows.
    static let fixtures = [
        Fixture(name: "wide.png", image: PlainImage(width: 100_000, height: 1000, bands: 4), container: .png),
        Fixture(name: "tall.png", image: PlainImage(width: 1000, height: 100_000, bands: 4), container: .png),
        Fixture(name: "wide-rgb.png", image: PlainImage(width: 100_000, height: 1000), container: .png),
        Fixture(name: "wide.tif", image: PlainImage(width: 100_000, height: 1000, bands: 4), container: .tiff),
        Fixture(name: "wide.webp", image: PlainImage(width: 16383, height: 6103, bands: 4), container: .webp),
        Fixture(name: "wide.jpg", image: PlainImage(width: 65500, height: 1526), container: .jpeg),
        Fixture(
            name: "wide-progressive.jpg", image: PlainImage(width: 65500, height: 1526), container: .jpeg,
            progressive: true),
    ]
    static let budget = 64 << 20

    let folder = TemporaryFolder()

    /// The exit status and peak resident memory of rendering `input` with the budget
    /// configured, and what it printed.
    private func render(_ input: String) throws -> (status: Int32, peak: Int, output: String) {
        let config = try folder.write(Array(#"{"decodeMemoryBudget": "64 MiB"}"#.utf8), to: "config.json")
        let outcome = try ThumbsProcess.run(
            [ThumbsProcess.executable().path, "render", input, "-o", folder.path + "/out/", "--config", config],
            executable: "thumbs-peak-memory")
        let peak = outcome.standardError.split(separator: "\n").last { $0.hasPrefix("peak-resident-bytes ") }
        return (
            outcome.status, Int(peak?.split(separator: " ").last ?? "") ?? .max,
            outcome.standardOutput + outcome.standardError
        )
    }

    @Test(arguments: fixtures) func aRenderStaysWithinTheBudgetOrIsRefused(_ fixture: Fixture) throws {
        let input = try folder.write(
            try fixture.image.encoded(as: fixture.container, progressive: fixture.progressive), to: fixture.name)
        try expectWithinTheBudgetOrRefused(input, fixture.name)
    }

    /// GIFs, which libvips writes only through ImageMagick: made by the `ffmpeg` command, as wide
    /// and as tall as a GIF's 16-bit sizes allow at the pixel limit.
    @Test(
        .enabled(if: GeneratedMedia.hasFFmpeg, GeneratedMedia.ffmpegSkipReason),
        arguments: ["65500x1526", "1526x65500"])
    func aGIFStaysWithinTheBudgetOrIsRefused(_ size: String) throws {
        let input = folder.path + "/\(size).gif"
        try GeneratedMedia.ffmpeg(["-f", "lavfi", "-i", "color=c=gray:s=\(size)", "-frames:v", "1", input])
        try expectWithinTheBudgetOrRefused(input, size + ".gif")
    }

    private func expectWithinTheBudgetOrRefused(_ input: String, _ fixture: String) throws {
        let tiny = try folder.write(try PlainImage(width: 16, height: 16).encoded(as: .png), to: "tiny.png")
        let baseline = try render(tiny)
        #expect(baseline.status == 0, "\(baseline.output)")
        let outcome = try render(input)
        let beyond = outcome.peak - baseline.peak
        if outcome.status == 0 {
            #expect(
                beyond <= Self.budget,
                "\(fixture): \(beyond >> 20) MiB beyond a tiny image's \(baseline.peak >> 20) MiB, budget 64 MiB")
        } else {
            #expect(
                outcome.status == 1 && outcome.output.contains("too-much-memory"), "\(fixture): \(outcome.output)")
        }
    }
}
