import NIOCore
import ThumbsSupport

/// The answers one event loop gave to thumbnail targets it answered from memory, ready to
/// write again: each ``ThumbnailAnswer`` with its status line and fields encoded, and its image,
/// in `ByteBuffer`s that every response shares rather than copies. A second request for a
/// target costs a dictionary lookup instead of the asset lookup, the memory tier's lookup (and
/// its lock, shared by every loop), a copy of the image and the encoding of its fields.
///
/// An entry holds while the library index is at the generation it was made at (a change to
/// the library drops them all). Entries are bounded by their bytes; when full, arbitrary ones
/// go (the memory tier behind is the cache that keeps what is used).
/// Used only on its event loop, so it needs no lock.
final class ReadyAnswers {
    /// A ``ThumbnailAnswer`` with its status line and fields encoded
    /// (``ThumbnailAnswer/encodedHead()``).
    struct Encoded {
        var answer: ThumbnailAnswer
        var head: ByteBuffer

        init(_ answer: ThumbnailAnswer) {
            self.answer = answer
            head = answer.encodedHead()
        }
    }

    /// A target's two answers: its image, and the 304 to a client whose copy is current; and
    /// the route its requests are counted under. A class, so that a lookup hands out one
    /// reference rather than a copy of every buffer.
    final class Entry {
        let generation: Int
        let validators: ThumbnailAnswer.Validators
        let route: ServerRoute.Group
        let ok: Encoded
        let notModified: Encoded

        init(generation: Int, validators: ThumbnailAnswer.Validators, route: ServerRoute.Group, image: ThumbnailAnswer)
        {
            self.generation = generation
            self.validators = validators
            self.route = route
            ok = Encoded(image)
            notModified = Encoded(.notModified(validators))
        }

        /// The answer to a request whose If-None-Match values are `ifNoneMatch`, decided as the
        /// route decides it.
        func answer(ifNoneMatch: some Sequence<String>) -> Encoded {
            validators.isCurrent(ifNoneMatch: ifNoneMatch) ? notModified : ok
        }

        /// The bytes an entry keeps alive.
        var size: Int { (ok.answer.body?.readableBytes ?? 0) + ok.head.readableBytes + notModified.head.readableBytes }
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
