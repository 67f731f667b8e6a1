import NIOCore
import ThumbsSupport

/// The answers one event loop gave to thumbnail targets it answered from memory, ready to
/// write again: the status line and fields that do not depend on the request, encoded, and the
/// image, each in a `ByteBuffer` that every response shares rather than copies. A second request for a target costs a
/// dictionary lookup instead of the asset lookup, the memory tier's lookup (and its lock,
/// shared by every loop) and a copy of the image.
///
/// An entry holds while the library index is at the generation it was made at (a change to
/// the library drops them all). Entries are bounded by their bytes; when full, arbitrary ones
/// go (the memory tier behind is the cache that keeps what is used).
/// Used only on its event loop, so it needs no lock.
final class ReadyAnswers {
    struct Entry {
        var generation: Int
        var etag: String
        /// Whether an If-None-Match naming ``etag`` is answered 304 (not with `delivery=fast`).
        var revalidates: Bool
        /// The status line and fields of the 200, encoded; the fields that change with the
        /// second or the connection follow it (``ResponseFieldsEnd``).
        var okHead: ByteBuffer
        /// The same for the 304.
        var notModifiedHead: ByteBuffer
        var body: ByteBuffer

        init(
            generation: Int, etag: String, cacheControl: String, revalidates: Bool, contentType: String,
            body: ByteBuffer
        ) {
            self.generation = generation
            self.etag = etag
            self.revalidates = revalidates
            self.body = body
            // The route's fields, in the route's order.
            let validators = [("ETag", etag), ("Vary", ThumbnailService.vary), ("Cache-Control", cacheControl)]
            okHead = Self.encode(
                "200 OK",
                validators + [("Content-Type", contentType), ("Content-Length", String(body.readableBytes))])
            notModifiedHead = Self.encode("304 Not Modified", validators)
        }

        /// The bytes an entry keeps alive.
        var size: Int { body.readableBytes + okHead.readableBytes + notModifiedHead.readableBytes }

        private static func encode(_ status: String, _ fields: [(String, String)]) -> ByteBuffer {
            var text = "HTTP/1.1 \(status)\r\n"
            for (name, value) in fields { text += "\(name): \(value)\r\n" }
            return ByteBuffer(string: text)
        }
    }

    let byteLimit: Int
    private var entries: [String: Entry] = [:]
    private var bytes = 0

    init(byteLimit: Int) {
        self.byteLimit = byteLimit
    }

    func entry(for target: String, generation: Int) -> Entry? {
        guard let entry = entries[target] else { return nil }
        guard entry.generation == generation else {
            remove(target)
            return nil
        }
        return entry
    }

    func insert(_ entry: Entry, for target: String) {
        let size = entry.size
        guard size <= byteLimit else { return }
        remove(target)
        while bytes + size > byteLimit, let victim = entries.keys.first { remove(victim) }
        entries[target] = entry
        bytes += size
    }

    private func remove(_ target: String) {
        if let old = entries.removeValue(forKey: target) { bytes -= old.size }
    }
}

/// One ``ReadyAnswers`` per event loop, made when the loop's first connection opens.
final class ReadyAnswersByLoop: Sendable {
    private let byLoop = LockedValue<[ObjectIdentifier: NIOLoopBound<ReadyAnswers>]>([:])
    let byteLimitPerLoop: Int

    init(byteLimitPerLoop: Int) {
        self.byteLimitPerLoop = byteLimitPerLoop
    }

    /// The answers of `loop`; call on `loop`.
    func answers(of loop: any EventLoop) -> ReadyAnswers {
        byLoop.withLock { byLoop in
            if let answers = byLoop[ObjectIdentifier(loop)] { return answers.value }
            let answers = ReadyAnswers(byteLimit: byteLimitPerLoop)
            byLoop[ObjectIdentifier(loop)] = NIOLoopBound(answers, eventLoop: loop)
            return answers
        }
    }
}
