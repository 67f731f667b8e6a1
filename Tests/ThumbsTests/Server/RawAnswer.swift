import Foundation

/// HTTP/1.1 responses read back from a raw connection: status, fields (lowercased names, `date`
/// left out as it changes by the second), the head as written (its lines in order, the `Date`
/// value masked) and body, split by their Content-Length.
struct RawAnswer {
    var status: Int
    var fields: [String: String]
    /// The status line and the field lines, in order; `Date`'s value is `*`.
    var head: [String]
    var body: [UInt8]

    /// The answers in `bytes`; those at the positions in `bodiless` (answers to HEAD) have no
    /// body whatever their Content-Length says. A HEAD's answer not listed is only recognised
    /// last, where no bytes follow.
    static func split(_ bytes: [UInt8], bodiless: Set<Int> = []) -> [RawAnswer] {
        var answers: [RawAnswer] = []
        var rest = bytes[...]
        let separator = Array("\r\n\r\n".utf8)
        while let end = rest.firstRange(of: separator) {
            let lines = String(decoding: rest[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
            var fields: [String: String] = [:]
            var head = Array(lines.prefix(1))
            for line in lines.dropFirst() {
                guard let colon = line.firstIndex(of: ":") else { continue }
                let name = line[..<colon].lowercased()
                if name == "date" {
                    head.append(line[..<colon] + ": *")
                } else {
                    fields[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    head.append(line)
                }
            }
            let status = Int(lines.first?.split(separator: " ").dropFirst().first ?? "") ?? 0
            let length =
                status == 304 || bodiless.contains(answers.count) ? 0 : Int(fields["content-length"] ?? "0") ?? 0
            let bodyEnd = min(end.upperBound + length, rest.endIndex)
            answers.append(
                RawAnswer(status: status, fields: fields, head: head, body: Array(rest[end.upperBound..<bodyEnd])))
            rest = rest[bodyEnd...]
        }
        return answers
    }
}
