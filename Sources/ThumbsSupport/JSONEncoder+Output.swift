import Foundation

extension JSONEncoder {
    /// How Thumbs writes JSON for people and tools to read, everywhere it does: keys sorted (the
    /// same value prints the same bytes), slashes as they are (a path reads as a path, not
    /// `\/work\/…`).
    package enum OutputStyle: Sendable {
        /// Indented, one key per line: a whole document (`thumbs config`, a command's `--json`
        /// report).
        case document
        /// On one line: a JSON line of a stream (`--json` events, `thumbs get`'s deliveries) or
        /// an HTTP body.
        case line
    }

    /// An encoder that writes `style`.
    package convenience init(style: OutputStyle) {
        self.init()
        switch style {
        case .document: outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        case .line: outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        }
    }
}
