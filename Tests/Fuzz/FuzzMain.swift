import Foundation

#if THUMBS_LIBFUZZER
    import CLibFuzzer
#endif

/// The program. Built for fuzzing (`scripts/fuzz`: `-sanitize=fuzzer,address -D THUMBS_LIBFUZZER`),
/// it hands the process to libFuzzer's driver, which takes libFuzzer's usual arguments and
/// calls ``fuzzOneInput(_:_:)``. Built plainly (`swift build` builds every target), it runs the
/// inputs named on its command line through the same checks: the target keeps compiling with
/// the rest of the package, and a crash found by the fuzzer replays under the debugger.
@main
enum FuzzMain {
    static func main() {
        #if THUMBS_LIBFUZZER
            // Seeds made by the program's own encoders, so they follow the record layouts.
            if let folder = ProcessInfo.processInfo.environment["THUMBS_FUZZ_SEEDS"], !folder.isEmpty {
                FuzzSeeds.write(to: folder)
            }
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(LLVMFuzzerRunDriver(&argc, &argv) { fuzzOneInput(UnsafeRawPointer($0), $1) })
        #else
            replay(CommandLine.arguments.dropFirst())
        #endif
    }

    static func replay(_ paths: ArraySlice<String>) {
        guard !paths.isEmpty else {
            print("usage: thumbs-fuzz INPUT...  (to fuzz: scripts/fuzz)")
            return
        }
        for path in paths {
            guard let data = FileManager.default.contents(atPath: path) else {
                print("\(path): unreadable")
                exit(1)
            }
            _ = data.withUnsafeBytes { fuzzOneInput($0.baseAddress, $0.count) }
            print("\(path): \(data.count) bytes, no crash")
        }
    }
}
