/// Text from outside the program — file and folder names, album titles, messages quoting them —
/// made safe to show on a terminal.
///
/// A file name may hold any byte but "/" and NUL: an escape sequence in one could set the window
/// title or repaint the screen, a newline would forge a report line, and a bidirectional override
/// would show a name backwards. Human output shows such characters escaped, Swift-style (`\n`,
/// `\u{1B}`); JSON output keeps names exact, since its own encoding escapes them.
package enum TerminalText {
    package static func escaping(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var shown = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": shown += "\\n"
            case "\t": shown += "\\t"
            case "\r": shown += "\\r"
            case _ where isUnsafe(scalar): shown += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: shown.unicodeScalars.append(scalar)
            }
        }
        return shown
    }

    /// C0 and C1 controls and DEL, line and paragraph separators, and the bidirectional
    /// embeddings, overrides and isolates.
    private static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension String {
    /// This text as ``TerminalText`` shows it.
    package var escapedForTerminal: String { TerminalText.escaping(self) }
}
