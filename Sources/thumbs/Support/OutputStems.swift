import Foundation
import Thumbs

/// Where each photo's thumbnails go: OUT/<folder name>/<path in the folder> for folders (names
/// made unique: two folders called DCIM go to DCIM and DCIM-2), OUT/<file name> for files.
struct OutputStems {
    private var names: [String: String] = [:]
    let outputFolder: String

    init(folders: [String], outputFolder: String) {
        self.outputFolder = outputFolder
        var used: Set<String> = []
        for folder in folders {
            let path = URL(fileURLWithPath: folder).standardizedFileURL.path
            let base = path == "/" ? "root" : URL(fileURLWithPath: path).lastPathComponent
            var name = base
            var suffix = 2
            while !used.insert(name).inserted {
                name = "\(base)-\(suffix)"
                suffix += 1
            }
            names[path] = name
        }
    }

    func stem(for asset: Asset) -> String {
        guard let name = names[asset.root] else { return outputFolder + "/" + asset.relativePath }
        return outputFolder + "/" + name + "/" + asset.relativePath
    }
}
