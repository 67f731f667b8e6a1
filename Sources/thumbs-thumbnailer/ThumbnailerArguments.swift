import ThumbsOneFile

/// The command line a `.thumbnailer` file's `Exec=` gives: `-s SIZE INPUT OUTPUT` (or
/// `--size SIZE`, `--size=SIZE`), with `-v` (`--verbose`) for the confinement's note. Anything
/// else, a size out of range included, is not taken: `thumbs thumbnail` parses it and says
/// what is wrong.
struct ThumbnailerArguments {
    let size: Int
    let input: String
    let output: String
    let verbose: Bool

    init?(_ arguments: [String]) {
        var size: Int?
        var verbose = false
        var operands: [String] = []
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-s", "--size":
                guard size == nil, let value = rest.popFirst().flatMap({ Int($0) }) else { return nil }
                size = value
            case _ where argument.hasPrefix("--size="):
                guard size == nil, let value = Int(argument.dropFirst("--size=".count)) else { return nil }
                size = value
            case "-v", "--verbose":
                verbose = true
            case _ where argument.hasPrefix("-") && argument != "-":
                return nil
            default:
                operands.append(argument)
            }
        }
        guard let size, DesktopThumbnailer.sizes.contains(size), operands.count == 2 else { return nil }
        (self.size, self.input, self.output, self.verbose) = (size, operands[0], operands[1], verbose)
    }
}
