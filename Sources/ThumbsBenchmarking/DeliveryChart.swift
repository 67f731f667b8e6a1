import Foundation
import ThumbsCore
import ThumbsImaging

/// The results of a delivery benchmark as a PNG: one panel per measure, one bar per scenario.
///
/// ```swift
/// let png = try DeliveryChart(results: results, title: "660 photos, 40 cells/s").png()
/// ```
/// Drawing lays out text with libvips: call it off the cooperative threads (a render thread).
package struct DeliveryChart: Sendable {
    package var results: [DeliveryScenarioResult]
    package var title: String

    package init(results: [DeliveryScenarioResult], title: String) {
        self.results = results
        self.title = title
    }

    /// A measure drawn as bars: a main value and, lighter beside it, an optional second one.
    private struct Panel {
        var title: String
        var unit: String
        var values: [(main: Double, second: Double?)]
    }

    private static let dark = RasterCanvas.Color(red: 38, green: 99, blue: 178)
    private static let light = RasterCanvas.Color(red: 160, green: 194, blue: 232)
    private static let labelWidth = 230, barWidth = 360, rowHeight = 22

    package func png() throws(ImagingError) -> [UInt8] {
        try VipsRuntime.ensureStarted()
        let panels = [
            Panel(
                title: "Cells blank for longer than one frame", unit: "%",
                values: results.map { ($0.blankShare * 100, nil) }),
            Panel(
                title: "Time to first image: p50, and p95 lighter", unit: "ms",
                values: results.map { ($0.firstImage.p50 ?? 0, $0.firstImage.p95) }),
            Panel(
                title: "Time to final image: p50, and p95 lighter", unit: "ms",
                values: results.map { ($0.finalImage.p50 ?? 0, $0.finalImage.p95) }),
            Panel(
                title: "Renders finished, and wasted lighter", unit: "",
                values: results.map { (Double($0.rendersFinished), Double($0.rendersWasted)) }),
        ]
        let panelHeight = 30 + results.count * Self.rowHeight + 14
        var canvas = RasterCanvas(width: Self.labelWidth + Self.barWidth + 110, height: 40 + panels.count * panelHeight)
        try canvas.write("<b>\(escaped(title))</b>", x: 12, y: 10, font: "sans 13")
        for (number, panel) in panels.enumerated() {
            try draw(panel, on: &canvas, top: 40 + number * panelHeight)
        }
        return try canvas.png()
    }

    private func draw(_ panel: Panel, on canvas: inout RasterCanvas, top: Int) throws(ImagingError) {
        try canvas.write("<b>\(escaped(panel.title))</b>", x: 12, y: top + 6)
        let largest = panel.values.map { max($0.main, $0.second ?? 0) }.max() ?? 0
        let scale = largest > 0 ? Double(Self.barWidth) / largest : 0
        for (row, (result, value)) in zip(results, panel.values).enumerated() {
            let y = top + 30 + row * Self.rowHeight
            try canvas.write(escaped(result.scenario.description), x: 24, y: y + 2)
            let x = Self.labelWidth
            // The longer bar first, so that the shorter stays visible on top of it.
            let bars = [(value.main, Self.dark)] + (value.second.map { [($0, Self.light)] } ?? [])
            for (length, color) in bars.sorted(by: { $0.0 > $1.0 }) {
                canvas.fill(x: x, y: y + 2, width: Int(length * scale), height: Self.rowHeight - 6, color: color)
            }
            let end = x + Int(max(value.main, value.second ?? 0) * scale) + 6
            try canvas.write(label(value, unit: panel.unit), x: end, y: y + 2, font: "sans 10")
        }
    }

    private func label(_ value: (main: Double, second: Double?), unit: String) -> String {
        func format(_ number: Double) -> String {
            number >= 100 || number == number.rounded() ? String(Int(number.rounded())) : String(format: "%.1f", number)
        }
        return ([format(value.main)] + (value.second.map { [format($0)] } ?? [])).joined(separator: " / ") + " " + unit
    }

    /// Pango markup needs its three special characters escaped.
    private func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
