import Foundation
import ThumbsPipeline

/// A delivery benchmark's results with what they were measured on, as a table or JSON.
package struct DeliveryReport: Sendable, Codable {
    package var photos: Int
    package var workers: Int
    package var configuration: DeliveryBenchmark.Configuration
    package var results: [DeliveryScenarioResult]

    package init(
        photos: Int, workers: Int, configuration: DeliveryBenchmark.Configuration,
        results: [DeliveryScenarioResult]
    ) {
        self.photos = photos
        self.workers = workers
        self.configuration = configuration
        self.results = results
    }

    /// One line saying what was scrolled, and how.
    package var title: String {
        let grid = String(format: "%d×%g", configuration.columns, configuration.visibleRows)
        return "\(photos) photos, grid \(grid) of \(configuration.targetSize) cells, "
            + String(
                format: "%g cells/s, %g fps, %d render threads", configuration.cellsPerSecond,
                configuration.framesPerSecond, workers)
    }

    /// The results as an aligned text table, one row per scenario.
    package var table: String {
        let header = [
            "delivery", "preheat", "cells", "blank>1 frame", "never shown", "first p50/p95/p99 ms", "with preview",
            "final p50/p95/p99 ms",
            "degraded", "rendered", "cancelled", "wasted", "failed",
        ]
        let rows = results.map { result in
            [
                result.scenario.deliveryMode.rawValue, result.scenario.preheatName, "\(result.cellsShown)",
                String(format: "%.1f%%", result.blankShare * 100), "\(result.neverFilled)",
                Self.latencies(result.firstImage),
                Self.latencies(result.firstImageWithPreview),
                Self.latencies(result.finalImage), "\(result.degradedShown)", "\(result.rendersFinished)",
                "\(result.rendersCancelled)", "\(result.rendersWasted)", "\(result.rendersFailed)",
            ]
        }
        let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
        let lines = ([header] + rows).map { row in
            row.enumerated().map { column, text in
                column < 2
                    ? text.padding(toLength: widths[column], withPad: " ", startingAt: 0)
                    : String(repeating: " ", count: widths[column] - text.count) + text
            }.joined(separator: "  ")
        }
        return ([title] + lines).joined(separator: "\n")
    }

    private static func latencies(_ summary: LatencySummary) -> String {
        [summary.p50, summary.p95, summary.p99].map { $0.map { String(format: "%.0f", $0) } ?? "-" }.joined(
            separator: "/")
    }
}
