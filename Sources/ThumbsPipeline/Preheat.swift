import Foundation

/// A running preheat, told apart from a later one for the same key by its token.
struct Preheat: Sendable {
    let token: UUID
    let task: Task<Void, Never>
}
