import ThumbsLibrary

extension AssetCollection {
    /// The album's id as URLs carry it: letters, digits and "-" only ("smart-all-photos",
    /// "folder-0123456789abcdef"), so that it needs no escaping.
    var urlID: String { Self.urlID(collectionID: id) }

    static func urlID(collectionID: String) -> String {
        String(
            collectionID.lowercased().map { character in
                character.isASCII && (character.isLetter || character.isNumber) ? character : "-"
            })
    }
}
