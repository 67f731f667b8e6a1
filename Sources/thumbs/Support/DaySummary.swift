struct DaySummary: Encodable {
    let day: String
    let photos: Int
    let videos: Int
}
