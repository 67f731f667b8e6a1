import ThumbsImaging
import ThumbsStore

extension LibraryFactory {
    /// The journal of this process's decodes in the `decoding` folder of `folder`, once what the
    /// journals of dead processes there hold is recorded as failures by `record` (and only then
    /// removed). Without one (the folder is read-only, or full), the library opens all the same,
    /// and `notices` hears it.
    ///
    /// Only a renderer in this process notes its decodes (isolation "none"): with render workers,
    /// no journal is kept; the leftovers of an earlier process's are recorded all the same.
    func openJournal(
        beside folder: String, notices: (Notice) -> Void,
        record: ([ImageLocation]) async throws(LibraryFactoryError) -> Void
    ) async throws(LibraryFactoryError) -> DecodeJournalFile? {
        let directory = DecodeJournalFile.directory(ofCache: folder)
        let leftovers = DecodeJournalFile.leftovers(in: directory)
        try await record(leftovers.crashed)
        leftovers.discard()
        for location in leftovers.crashed { notices(.crashedDecode(location)) }
        guard configuration.isolation == .none else { return nil }
        do {
            return try DecodeJournalFile(directory: directory)
        } catch {
            notices(.noDecodeJournal(error))
            return nil
        }
    }
}
