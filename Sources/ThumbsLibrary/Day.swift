import Foundation

/// A calendar day, as the heading of a moment.
public struct Day: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public var year: Int, month: Int, day: Int

    public init(year: Int, month: Int, day: Int) {
        (self.year, self.month, self.day) = (year, month, day)
    }

    public static func < (lhs: Day, rhs: Day) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    /// "2022-02-16".
    public var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }
}
