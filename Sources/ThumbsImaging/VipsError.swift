import CVips
import CVipsShim
import Foundation
import ThumbsSupport

/// Access to libvips' error buffer and to the warnings the shim keeps.
///
/// Both are process-wide: while other renders run, the text may hold their lines too (even
/// successful loads leave some). ``VipsCallGate`` re-runs a failed call alone, so the message a
/// user sees belongs to their file.
package enum VipsError {
    /// Returns and clears the text libvips accumulated, and the warnings kept while capture was
    /// on (see ``VipsCallGate``), as one line.
    package static func takeMessage() -> String {
        var text = ""
        if let raw = vips_error_buffer_copy() {
            text += String(cString: raw)
            g_free(raw)
        }
        if let raw = thumbs_vips_take_warnings() {
            text += "\n" + String(cString: raw)
            g_free(raw)
        }
        return oneLine(text)
    }

    /// Distinct non-empty lines joined by "; ".
    private static func oneLine(_ text: String) -> String {
        let lines =
            text
            .split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("error in tile") }
        var unique: [String] = []
        for line in lines where !unique.contains(line) { unique.append(line) }
        return unique.joined(separator: "; ")
    }
}
