/// The `serve` section of `config.json`: where `thumbs serve` listens, who may ask, and the
/// limits that keep a hostile or careless client cheap. Every field has a default.
public struct ServeConfiguration: Sendable, Hashable, Codable {
    /// `HOST:PORT` (`[::1]:8080` for IPv6). Default: `127.0.0.1:8080`, loopback only.
    public var listen = "127.0.0.1:8080"
    /// The bearer token every API and thumbnail request must carry, when set. Default: none.
    /// A server on an address other than loopback without one warns at start.
    public var token: String?
    /// Renders that requests may have in flight or waiting at once; a miss past it is answered
    /// 503 with `Retry-After`. Preheating is not counted. Default: 64.
    public var maxPendingRenders = 64
    /// Seconds a connection may take to send a complete request head, counted from when it
    /// opens and, on a kept-alive connection, from the end of the last response: a client
    /// trickling its headers (slowloris), or idle between requests for longer, is dropped.
    /// Default: 10.
    public var requestHeadTimeout: Double = 10
    /// Seconds a request body may go with nothing read (a client that stops sending it).
    /// Default: 60.
    public var idleTimeout: Double = 60
    /// Seconds a whole request body may take, counted from the end of its head: a client
    /// trickling a body, however steadily, is dropped past it. Default: 30.
    public var requestBodyTimeout: Double = 30
    /// Bytes a second a request body must arrive at, on average from the end of its head, once
    /// its first 5 seconds have passed; slower is dropped. 0 for no minimum. Default: 1024.
    public var minRequestBodyRate = 1024
    /// Connections served at once; more wait in the listen backlog. Default: 1024.
    public var maxConnections = 1024
    /// Longest request target (path and query), in bytes; longer is answered 414. Default: 4096.
    public var maxTargetLength = 4096
    /// Largest request head (all header fields), in bytes; larger closes the connection with
    /// 431. Default: 16384.
    public var maxHeaderBytes = 16384
    /// Largest request body (a preheat list), in bytes; larger is answered 413. Default: 1 MiB.
    public var maxBodyBytes = 1 << 20
    /// Most assets one listing page holds. Default: 1000.
    public var maxPageSize = 1000
    /// What a listing page holds when the request gives no `limit`: 200, or ``maxPageSize``
    /// when that is smaller.
    public var defaultPageSize: Int { min(200, maxPageSize) }
    /// Most assets one client may have preheating at once. Default: 10000.
    public var maxPreheatedAssets = 10_000
    /// Most clients (`X-Thumbs-Client` names, else addresses) whose preheating is kept; past
    /// it, the least recently seen is forgotten and what it alone preheated stops. Default: 1000.
    public var maxPreheatClients = 1000
    /// Seconds a client's preheating is kept after its last preheat request; then it is
    /// forgotten and what it alone preheated stops. Default: 600.
    public var preheatClientIdleTimeout: Double = 600
    /// Whether the server warms, in the background at start, what `thumbs warm` would: every
    /// rendition and placeholder not cached yet. Default: true.
    public var warmOnStart = true

    public init() {}

    enum CodingKeys: String, KnownKeys {
        case listen, token, maxPendingRenders, requestHeadTimeout, idleTimeout, requestBodyTimeout, minRequestBodyRate
        case maxConnections, maxTargetLength, maxHeaderBytes, maxBodyBytes, maxPageSize, maxPreheatedAssets
        case maxPreheatClients, preheatClientIdleTimeout, warmOnStart
    }

    public init(from decoder: any Decoder) throws {
        try decoder.rejectUnknownKeys(CodingKeys.self)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let defaults = ServeConfiguration()
        listen = try container.decodeIfPresent(String.self, forKey: .listen) ?? defaults.listen
        guard ListenAddress(listen) != nil else {
            throw DecodingError.dataCorruptedError(
                forKey: .listen, in: container, debugDescription: "expected HOST:PORT, found \"\(listen)\"")
        }
        token = try container.decodeIfPresent(String.self, forKey: .token)
        if let token, token.isEmpty || token.utf8.count > 4096 || token.contains(where: \.isWhitespace) {
            throw DecodingError.dataCorruptedError(
                forKey: .token, in: container, debugDescription: "expected 1 to 4096 characters and no spaces")
        }
        maxPendingRenders =
            try container.decodeInteger(.maxPendingRenders, in: 1...100_000) ?? defaults.maxPendingRenders
        requestHeadTimeout =
            try container.decodeSeconds(.requestHeadTimeout, in: 0.001...86_400) ?? defaults.requestHeadTimeout
        idleTimeout = try container.decodeSeconds(.idleTimeout, in: 0.001...86_400) ?? defaults.idleTimeout
        requestBodyTimeout =
            try container.decodeSeconds(.requestBodyTimeout, in: 0.001...86_400) ?? defaults.requestBodyTimeout
        minRequestBodyRate =
            try container.decodeInteger(.minRequestBodyRate, in: 0...1 << 30) ?? defaults.minRequestBodyRate
        maxConnections = try container.decodeInteger(.maxConnections, in: 1...1_000_000) ?? defaults.maxConnections
        maxTargetLength = try container.decodeInteger(.maxTargetLength, in: 256...1 << 20) ?? defaults.maxTargetLength
        maxHeaderBytes = try container.decodeInteger(.maxHeaderBytes, in: 1024...1 << 20) ?? defaults.maxHeaderBytes
        maxBodyBytes = try container.decodeInteger(.maxBodyBytes, in: 1024...1 << 30) ?? defaults.maxBodyBytes
        maxPageSize = try container.decodeInteger(.maxPageSize, in: 1...100_000) ?? defaults.maxPageSize
        maxPreheatedAssets =
            try container.decodeInteger(.maxPreheatedAssets, in: 0...10_000_000) ?? defaults.maxPreheatedAssets
        maxPreheatClients =
            try container.decodeInteger(.maxPreheatClients, in: 1...1_000_000) ?? defaults.maxPreheatClients
        preheatClientIdleTimeout =
            try container.decodeSeconds(.preheatClientIdleTimeout, in: 0.001...86_400 * 30)
            ?? defaults.preheatClientIdleTimeout
        warmOnStart = try container.decodeIfPresent(Bool.self, forKey: .warmOnStart) ?? defaults.warmOnStart
    }

    /// A duration in seconds, from a millisecond to a day.
    /// ``listen``, parsed.
    public var address: ListenAddress { ListenAddress(listen)! }
}

/// A host and a port to listen on, from `HOST:PORT` or `[IPV6]:PORT`.
public struct ListenAddress: Sendable, Hashable, CustomStringConvertible {
    public var host: String
    public var port: Int

    public init?(_ text: String) {
        let host: Substring, port: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                return nil
            }
            host = text[text.index(after: text.startIndex)..<close]
            port = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { return nil }
            host = text[..<colon]
            port = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !host.contains(where: { $0.isWhitespace || $0 == "/" }), let number = Int(port),
            (0...65_535).contains(number)
        else { return nil }
        self.host = String(host)
        self.port = number
    }

    /// Whether only this machine can connect: 127.0.0.0/8, ::1 or localhost.
    public var isLoopback: Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
