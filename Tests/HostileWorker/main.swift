import Glibc
import SystemPackage
import ThumbsCore
import ThumbsImaging
import ThumbsIsolation
import ThumbsRendering

// A render worker whose decoder has been taken over, as a crafted file that exploits a decoding
// library would: Thumbs' own worker (started, confined and served by `RenderWorkerProcess`), but
// for files named after an attack it does what the attack would, under the real confinement.
// Every other file it decodes as the real worker does.
//
// `thumbs-hostile-worker --one-file FOLDER NAME OUTPUT` is the same decoder in a one-file
// command's process instead (`ConfinedRender`, as `thumbs thumbnail` renders): FOLDER/NAME
// rendered to OUTPUT; a failure is one line on stderr and status 1, as the command's.
func hostile(_ settings: WorkerSettings) -> RenderWorkerProcess.Decoder {
    let standard = RenderWorkerProcess.standardDecoder(settings)
    return { request, file in
        switch request.path {
        case "open-a-path.jpg":
            let descriptor = open("/etc/passwd", O_RDONLY)
            let failure = errno
            return .failure(
                .unreadable(descriptor >= 0 ? "opened /etc/passwd" : "open: \(String(cString: strerror(failure)))"))
        case "make-a-socket.jpg":
            let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            return .failure(.unreadable("made socket \(socket)"))
        case "run-a-program.jpg":
            let status = system("true")
            return .failure(.unreadable("ran a program: \(status)"))
        case "take-all-memory.jpg":
            // Allocations that keep every page they touch, until one is refused at the
            // worker's address-space limit and Swift traps.
            var hoard: [[UInt8]] = []
            while true { hoard.append([UInt8](repeating: 1, count: 64 << 20)) }
        case "answer-garbage.jpg":
            return .thumbnails([])
        case "answer-too-much.jpg":
            // 8 MiB for a box of 128x128: more than any encoding of it takes.
            let bytes = [0xFF, 0xD8, 0xFF] + [UInt8](repeating: 0, count: 8 << 20)
            return .thumbnails([
                Thumbnail(bytes: bytes, pixelSize: PixelSize(width: 128, height: 96), format: .jpeg)
            ])
        case "fault-in-the-header.jpg" where request.work == .inspect:
            raise(SIGSEGV)
            return .failure(.crashed)
        default:
            return standard(request, file)
        }
    }
}

func renderOneFile(folder: String, name: String, output: String) -> Int32 {
    var configuration = ImagingConfiguration(workers: 1)
    configuration.decodeMemoryBudget = ImagingConfiguration.minimumDecodeMemoryBudget
    if let reason = ConfinedRender.unavailable {
        say("cannot confine: \(reason)")
        return 2
    }
    do throws(ConfinedRender.Failure) {
        let thumbnail = try ConfinedRender.render(
            ImageLocation(root: FilePath(folder), relativePath: FilePath(name)),
            spec: RenditionSpec(size: PixelSize(width: 128, height: 128)), to: FilePath(output),
            settings: WorkerSettings(sharing: configuration), decoder: hostile,
            deathLine: { "\(name): \($0.kind.rawValue): \($0)\n" },
            confined: { print("confined by \($0)") })
        print("\(thumbnail.pixelSize) \(thumbnail.format.rawValue)")
        return 0
    } catch {
        switch error {
        case .file(let error): say("\(name): \(error.kind.rawValue): \(error)")
        case .output(let message): say(message)
        }
        return 1
    }
}

/// A line on stderr.
func say(_ line: String) {
    let bytes = Array("\(line)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
}

let arguments = CommandLine.arguments
if arguments.count == 5, arguments[1] == "--one-file" {
    exit(renderOneFile(folder: arguments[2], name: arguments[3], output: arguments[4]))
}
exit(RenderWorkerProcess.main(decoder: hostile))
