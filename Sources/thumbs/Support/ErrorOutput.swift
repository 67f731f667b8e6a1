import Foundation
import ThumbsSupport

/// Writes `line` to standard error as "thumbs: line", escaped for a terminal.
func printError(_ line: String) {
    FileHandle.standardError.write(Data("thumbs: \(line.escapedForTerminal)\n".utf8))
}
