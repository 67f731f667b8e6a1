/// Waits until `condition` holds, for at most `seconds` (polls; never a timing assertion), and
/// says whether it did.
@discardableResult
package func eventually(seconds: Double = 30, _ condition: () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
    while try await !condition() {
        guard ContinuousClock.now < deadline else { return false }
        try await Task.sleep(for: .milliseconds(5))
    }
    return true
}
