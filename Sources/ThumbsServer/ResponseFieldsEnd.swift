import Foundation
import NIOCore

/// The fields every answer of ``MemoryHitHandler`` ends with, encoded with the empty line that
/// ends them: `Date` (RFC 9110's IMF-fixdate, formatted once a second rather than once a
/// response, without the C locale's say in the names), `Server`, and `Connection: close` on
/// the last answer of a connection.
struct ResponseFieldsEnd {
    private let serverName: String
    private var second = time_t(-1)
    private var open = ByteBuffer()
    private var closing = ByteBuffer()
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    init(serverName: String) {
        self.serverName = serverName
    }

    mutating func bytes(closing isClosing: Bool) -> ByteBuffer {
        var now = time(nil)
        if now != second {
            second = now
            var parts = tm()
            gmtime_r(&now, &parts)
            func twoDigits(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let date =
                "\(Self.days[Int(parts.tm_wday)]), \(twoDigits(parts.tm_mday)) \(Self.months[Int(parts.tm_mon)]) "
                + "\(parts.tm_year + 1900) \(twoDigits(parts.tm_hour)):\(twoDigits(parts.tm_min)):"
                + "\(twoDigits(parts.tm_sec)) GMT"
            let fields = "Date: \(date)\r\nServer: \(serverName)\r\n"
            open = ByteBuffer(string: fields + "\r\n")
            closing = ByteBuffer(string: fields + "Connection: close\r\n\r\n")
        }
        return isClosing ? closing : open
    }
}
