// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "Thumbs",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Thumbs", targets: ["Thumbs"]),
        .executable(name: "thumbs", targets: ["thumbs"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
    ],
    targets: [
        // System libraries, linked from Debian's packages (never vendored).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "vips",
            providers: [.apt(["libvips-dev"])]
        ),
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // Fixed-arity C wrappers for libvips' variadic API, which Swift cannot call.
        .target(
            name: "CVipsShim",
            dependencies: ["CVips"]
        ),
        .target(
            name: "Thumbs",
            dependencies: ["CVips", "CVipsShim", "CLMDB"]
        ),
        .executableTarget(
            name: "thumbs",
            dependencies: [
                "Thumbs",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A second process for the store's multi-process and crash tests.
        .executableTarget(
            name: "thumbs-store-worker",
            dependencies: ["Thumbs"],
            path: "Tests/StoreWorker"
        ),
        .testTarget(
            name: "ThumbsTests",
            // The executables are listed so the processes the tests run are built first.
            dependencies: ["Thumbs", "thumbs", "thumbs-store-worker", "CVips", "CVipsShim"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
