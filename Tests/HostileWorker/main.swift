import Glibc
import ThumbsCore
import ThumbsImaging
import ThumbsIsolation

// A render worker whose decoder has been taken over, as a crafted file that exploits a decoding
// library would: Thumbs' own worker (started, confined and served by `RenderWorkerProcess`), but
// for files named after an attack it does what the attack would, under the real confinement.
// Every other file it decodes as the real worker does.
exit(
    RenderWorkerProcess.main { settings in
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
    })
