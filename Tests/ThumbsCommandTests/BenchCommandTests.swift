import Foundation
import Testing
import Thumbs
import ThumbsBenchmarking
import ThumbsCoreTestSupport
import ThumbsTestSupport
import ThumbsSamples

/// `thumbs bench delivery` as a process on a generated library.
@Suite struct BenchCommandTests {
    let folder = TemporaryFolder()

    @Test func deliveryReportsEveryScenarioAsJSONAndAChart() throws {
        for index in 0..<12 {
            try folder.write(
                try SyntheticImage(width: 800, height: 600).encoded(as: .jpeg), to: "library/p\(index).jpg")
        }
        try folder.write(Array("not a photo".utf8), to: "library/broken.jpg")
        let outcome = try ThumbsProcess.run([
            "bench", "delivery", folder.path + "/library", "--cache", folder.path + "/cache", "--speed", "120",
            "--rows", "2", "--json", "--chart", folder.path + "/chart.png",
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let report = try JSONDecoder().decode(DeliveryReport.self, from: Data(outcome.standardOutput.utf8))
        #expect(Set(report.results.map(\.scenario)) == Set(DeliveryScenario.all))
        #expect(report.results.allSatisfy { $0.cellsShown == report.photos })
        #expect(try VipsRenderer().probe(folder.path + "/chart.png").mediaType == .png)
    }

    @Test func tableAndUsageErrors() throws {
        try folder.write(try SyntheticImage(width: 400, height: 300).encoded(as: .jpeg), to: "library/p.jpg")
        let table = try ThumbsProcess.run([
            "bench", "delivery", folder.path + "/library", "--cache", folder.path + "/cache",
            "--delivery", "highQualityFormat", "--preheat", "off",
        ])
        #expect(table.status == 0)
        #expect(table.standardOutput.contains("highQualityFormat  off"))
        let bad = try ThumbsProcess.run(["bench", "delivery", "--speed", "0"])
        #expect(bad.status == 2)
        #expect(try ThumbsProcess.run(["bench", "delivery", "--help"]).standardOutput.contains("Example"))
    }
}
