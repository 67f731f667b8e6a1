struct SizesSummary: Encodable {
    struct Album: Encodable {
        let album: String
        let bytes: UInt64
        let assets: Int
    }

    let albums: [Album]
    let totalBytes: UInt64
    let filesFromCache: Int
    let filesRead: Int
}
