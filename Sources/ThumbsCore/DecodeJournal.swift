/// Where a renderer notes each file while a decoder has it, so that a process that dies inside
/// a decoder (a trap, a fault in a C library) leaves behind which files it was decoding.
///
/// Another process, or the next run, turns the notes a crash left into remembered failures
/// (``ImagingError/crashed``): a file that crashes a decoder is then skipped until it changes,
/// and a warm over a library that holds one still completes. A note is written as the decode
/// starts, on the render thread, and withdrawn as it ends, whatever its outcome.
public protocol DecodeJournal: Sendable {
    /// Runs `work`, the decode of the file at `location`, noted for as long as it runs.
    func noting<T, Failure: Error>(_ location: ImageLocation, during work: () throws(Failure) -> T) throws(Failure)
        -> T
}
