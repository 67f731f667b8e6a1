// swift-tools-version:6.1
import PackageDescription

// The package graph is the architecture (docs/ARCHITECTURE.md): each layer is a target that
// names the layers it uses, so the compiler refuses a call the layering does not allow.
//
//   ThumbsSupport ← ThumbsCore ← ThumbsImaging ← ThumbsLibrary ← ThumbsPipeline ← Thumbs ← ThumbsServer
//                        ↖ ThumbsStore (no codec) ← ThumbsLibrary
//                                       ThumbsImaging ← ThumbsIsolation (confined worker processes) ← Thumbs
//
// ThumbsCore is the vocabulary with no C library under it (sizes, fingerprints, renditions,
// thumbnails, failure kinds), so that the store, its tests and its test programs depend on no codec.
//
// `Thumbs` is what an app imports: it re-exports the layers and adds the decoded config.json.
// `ThumbsServer` puts it on HTTP (Hummingbird), in a target of its own so that the library
// never links a web framework. The extras beside them are for benchmarks, tests and the
// command line, not for apps.
let package = Package(
    name: "Thumbs",
    platforms: [.macOS(.v15)],
    products: [
        // The layers are listed too, so that the API check covers every public module.
        .library(
            name: "Thumbs",
            targets: [
                "Thumbs", "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsImaging", "ThumbsIsolation",
                "ThumbsStore", "ThumbsLibrary", "ThumbsPipeline", "ThumbsSettings",
            ]
        ),
        // The cache, the library and the grid page over HTTP: `thumbs serve`.
        .library(name: "ThumbsServer", targets: ["ThumbsServer"]),
        .library(name: "ThumbsFreedesktop", targets: ["ThumbsFreedesktop"]),
        // Photo-like images made from nothing, for sample libraries and tests.
        .library(name: "ThumbsSamples", targets: ["ThumbsSamples"]),
        // Test doubles: a renderer that decodes nothing, for an app's tests (no codec).
        .library(name: "ThumbsTesting", targets: ["ThumbsTesting"]),
        // Process-wide settings for programs that decode many images (the command, benchmarks).
        .library(name: "ThumbsProcessTuning", targets: ["ThumbsProcessTuning"]),
        .executable(name: "thumbs", targets: ["thumbs"]),
        // The process IsolatedThumbnailRenderer renders in; installed beside `thumbs`.
        .executable(name: "thumbs-render-worker", targets: ["thumbs-render-worker"]),
        // The desktop's thumbnailer (deploy/freedesktop/thumbs.thumbnailer); installed beside `thumbs`.
        .executable(name: "thumbs-thumbnailer", targets: ["thumbs-thumbnailer"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-system", from: "1.4.0"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.6.0"),
    ],
    targets: [
        // System libraries from Debian's packages (never vendored). libvips, FFmpeg, libheif and
        // LibRaw are not linked: CLibraryLoader opens each when a file first needs it, so these
        // targets give only their headers (libvips' need GLib's, hence its pkg-config name).
        .systemLibrary(
            name: "CVips",
            pkgConfig: "gobject-2.0",
            providers: [.apt(["libvips-dev"])]
        ),
        .systemLibrary(
            name: "CLMDB",
            pkgConfig: "lmdb",
            providers: [.apt(["liblmdb-dev"])]
        ),
        // FFmpeg's libraries (videos) and LibRaw (camera RAW); their headers are in the
        // compiler's default paths on Debian (libavformat-dev, libavcodec-dev, libswscale-dev,
        // libraw-dev).
        .systemLibrary(name: "CFFmpeg"),
        .systemLibrary(name: "CLibRaw"),
        // libheif, which libvips reads HEIF with: its decoder-plugin interface (libheif-dev).
        .systemLibrary(name: "CHeif"),
        // libavif (libavif-dev), for AVIF image sequences, which libheif does not read.
        .systemLibrary(name: "CAvif"),
        // GLib (libvips is built on it): the desktop's own file URIs and their MD5.
        .systemLibrary(
            name: "CGLib",
            pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]
        ),
        // openat2 and O_PATH, which Swift cannot reach through Glibc; the read of a whole open file.
        .target(name: "CFileAccess"),
        // The decode journal's fatal-signal handler, in C: only async-signal-safe calls in it.
        .target(name: "CDecodeJournal"),
        // The decoding libraries opened on first use: a trampoline per function Thumbs calls,
        // filled in when the library is opened.
        .target(name: "CLibraryLoader", linkerSettings: [.linkedLibrary("dl")]),
        // Render workers: started, handed descriptors, confined (Landlock, seccomp through
        // Debian's libseccomp-dev, rlimits), and their fatal signals reported.
        .target(name: "CRenderSandbox", linkerSettings: [.linkedLibrary("seccomp")]),
        // Fixed-arity C wrappers for libvips' variadic API, which Swift cannot call.
        .target(
            name: "CVipsShim",
            dependencies: ["CVips", "CLibraryLoader"],
            // lcms, which libvips converts colours with, called directly for kept transforms;
            // GModule, which libvips' modules are loaded with.
            linkerSettings: [.linkedLibrary("lcms2"), .linkedLibrary("gmodule-2.0")]
        ),
        // HDR (PQ, HLG) pictures tone-mapped to SDR sRGB: float math in plain C, no library.
        .target(name: "CToneMap", linkerSettings: [.linkedLibrary("m")]),
        // A video's header and poster frame through FFmpeg, read from an open descriptor.
        .target(name: "CVideoShim", dependencies: ["CFFmpeg", "CToneMap", "CLibraryLoader"]),
        // HEIC pictures decoded by FFmpeg's HEVC decoder inside libheif (a libheif decoder
        // plugin); libheif, from Debian's libheif-dev, still reads the container. HEIF pictures
        // for thumbnails decoded as stored and averaged down here.
        .target(
            name: "CHeifShim",
            dependencies: ["CHeif", "CFFmpeg", "CVideoShim", "CToneMap", "CFileAccess", "CLibraryLoader"],
            linkerSettings: [.linkedLibrary("m")]
        ),
        // A camera RAW's header, embedded preview and half-size decode through LibRaw.
        .target(name: "CRawShim", dependencies: ["CLibRaw", "CLibraryLoader"]),
        // The header and first frame of an AVIF image sequence through libavif.
        .target(name: "CAvifShim", dependencies: ["CAvif", "CFileAccess", "CLibraryLoader"]),

        // JPEGs decoded (at a DCT scale) and encoded by libjpeg-turbo directly (Debian's libjpeg62-turbo-dev).
        .target(name: "CJpegShim", dependencies: ["CFileAccess"], linkerSettings: [.linkedLibrary("jpeg")]),
        // PNGs decoded by libpng directly, as libvips' pngload sets it up (Debian's libpng-dev); an
        // iCCP chunk's profile inflated by zlib.
        .target(name: "CPNGDecoder", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z")]),
        // Lanczos-3 downsizing of 8-bit pictures, vectorised by the compiler (plain C, no library).
        .target(name: "CResample", linkerSettings: [.linkedLibrary("m")]),
        // Thumbnails as PNG through zlib directly (Debian's zlib1g-dev).
        .target(name: "CPNGEncoder", linkerSettings: [.linkedLibrary("z")]),

        // The layers.
        // Threads for blocking C calls, priorities, locks: what every layer below shares.
        // Paths are FilePaths (swift-system): bytes, as the file system has them.
        .target(name: "ThumbsSupport", dependencies: [.product(name: "SystemPackage", package: "swift-system")]),
        // The vocabulary the layers above share, with no C library under it: sizes, fingerprints,
        // renditions, media types, thumbnails, placeholders, failure kinds, image locations.
        .target(
            name: "ThumbsCore",
            dependencies: ["ThumbsSupport", .product(name: "SystemPackage", package: "swift-system")]
        ),
        // The renderer seam, codec-free: what the layers above ask of a renderer
        // (`ThumbnailRendering`), what a file's inspection says, crops. Imaging and isolation
        // plug in beneath it, where the factory and the command assemble Thumbs.
        .target(
            name: "ThumbsRendering",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "CFileAccess", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // libvips (with FFmpeg for videos, LibRaw for camera RAW): probe, render, embedded
        // previews, typed errors.
        .target(
            name: "ThumbsImaging",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "CVips", "CVipsShim", "CFileAccess", "CVideoShim",
                "CRawShim",
                "CJpegShim", "CHeifShim", "CAvifShim", "CToneMap", "CPNGEncoder", "CPNGDecoder", "CResample",
                "CLibraryLoader", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The renderer whose decodes run in confined worker processes, and the workers' side.
        .target(
            name: "ThumbsIsolation",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsImaging", "CRenderSandbox",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // LMDB: thumbnails under a budget, the metadata cache, the failure memo. No codec: the
        // store knows images only through ThumbsCore's values.
        .target(
            name: "ThumbsStore",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "CLMDB", "CDecodeJournal",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // Assets, albums, moments, fetch results and their changes, watching.
        .target(
            name: "ThumbsLibrary",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsStore",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // CachingImageManager and the warm job.
        .target(
            name: "ThumbsPipeline",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsStore", "ThumbsLibrary",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // config.json read into each layer's settings, and what a factory opens from it; no codec.
        .target(
            name: "ThumbsSettings",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsStore", "ThumbsLibrary", "ThumbsPipeline",
            ]
        ),
        // The umbrella an app imports, and the factory that opens a library with the renderer its
        // configuration names.
        .target(
            name: "Thumbs",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsImaging", "ThumbsIsolation", "ThumbsStore",
                "ThumbsLibrary", "ThumbsPipeline", "ThumbsSettings",
            ]
        ),
        // One file rendered in the calling process, confined: `thumbs thumbnail`, `thumbs render
        // FILE -o FILE` and `thumbs-thumbnailer`, and the desktop thumbnailer's arguments.
        .target(
            name: "ThumbsOneFile",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsIsolation", "ThumbsSettings",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // HTTP: the JSON API, thumbnails with opportunistic delivery, the grid page, metrics.
        .target(
            name: "ThumbsServer",
            dependencies: [
                "ThumbsSettings", "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsStore", "ThumbsLibrary",
                "ThumbsPipeline",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ],
            exclude: ["Page/README.md"],
            resources: [
                .embedInCode("Page/index.html"), .embedInCode("Page/page.css"), .embedInCode("Page/page.js"),
                .embedInCode("Page/thumbhash.js"),
            ]
        ),

        // The desktop's thumbnail cache (freedesktop.org Thumbnail Managing Standard), as a warm's output.
        .target(
            name: "ThumbsFreedesktop",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsStore", "ThumbsLibrary", "ThumbsPipeline",
                "CGLib", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),

        // The extras.
        .target(name: "ThumbsSamples", dependencies: ["ThumbsCore", "ThumbsImaging", "CVips", "CVipsShim"]),
        .target(
            name: "ThumbsTesting", dependencies: ["ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsPipeline"]),
        // The scroll benchmark behind `thumbs bench delivery`: `package` access, in no product (the
        // command and its tests are its only users), so the API check does not hold it.
        .target(
            name: "ThumbsBenchmarking",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsImaging", "ThumbsStore", "ThumbsLibrary", "ThumbsPipeline",
                "CVips", "CVipsShim",
            ]
        ),
        .target(name: "ThumbsProcessTuning", dependencies: ["CVipsShim"]),

        .executableTarget(
            name: "thumbs",
            dependencies: [
                "Thumbs",
                "ThumbsRendering",
                "ThumbsIsolation",
                "ThumbsSupport",
                "ThumbsServer",
                "ThumbsFreedesktop",
                "ThumbsBenchmarking",
                "ThumbsProcessTuning",
                "ThumbsSamples",
                "ThumbsOneFile",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .executableTarget(name: "thumbs-render-worker", dependencies: ["ThumbsIsolation", "ThumbsProcessTuning"]),
        // One file's thumbnail for a file manager, in a program that starts fast: no command-line
        // parser, web server or cache linked in; `thumbs thumbnail` takes what it does not.
        .executableTarget(
            name: "thumbs-thumbnailer",
            dependencies: [
                "ThumbsOneFile", "ThumbsSettings", "ThumbsSupport", "ThumbsProcessTuning",
                .product(name: "Logging", package: "swift-log"),
            ]),
        // A render worker taken over by a hostile file: the isolation tests' attacks, under the
        // real confinement (a worker's, or a one-file command's with --one-file).
        .executableTarget(
            name: "thumbs-hostile-worker",
            dependencies: [
                "ThumbsIsolation", "ThumbsCore", "ThumbsImaging", "ThumbsRendering",
                .product(name: "SystemPackage", package: "swift-system"),
            ],
            path: "Tests/HostileWorker"),
        // A second process for the store's multi-process and crash tests (and the proof that the
        // store links no codec).
        .executableTarget(
            name: "thumbs-store-worker",
            dependencies: ["ThumbsStore", "ThumbsCore"],
            path: "Tests/StoreWorker"
        ),
        // Runs a program and reports its peak resident memory (the command tests' memory checks).
        .executableTarget(name: "thumbs-peak-memory", path: "Tests/PeakMemory"),
        // A process that faults while it decodes (the decode journal's tests).
        .executableTarget(
            name: "thumbs-journal-fault",
            dependencies: ["ThumbsStore", "ThumbsCore", .product(name: "SystemPackage", package: "swift-system")],
            path: "Tests/JournalFault"
        ),
        // The libFuzzer target over the parsers of untrusted bytes (scripts/fuzz); a plain build
        // makes a program that replays inputs instead. CLibFuzzer declares libFuzzer's driver.
        .systemLibrary(name: "CLibFuzzer", path: "Tests/CLibFuzzer"),
        .executableTarget(
            name: "thumbs-fuzz",
            dependencies: [
                "Thumbs", "ThumbsCore", "ThumbsImaging", "ThumbsLibrary", "ThumbsStore", "ThumbsFreedesktop", "CVips",
                "CVipsShim", "CAvifShim", "CLibFuzzer",
            ],
            path: "Tests/Fuzz",
            exclude: ["thumbs.dict", "regressions"]
        ),

        // Tests mirror the targets; what several of them share is in ThumbsCoreTestSupport (no
        // codec: temporary folders, files that are images by their first bytes, the package's programs
        // run) and ThumbsTestSupport (images).
        .target(name: "ThumbsCoreTestSupport", dependencies: ["ThumbsSupport"], path: "Tests/ThumbsCoreTestSupport"),
        .target(
            name: "ThumbsTestSupport",
            dependencies: [
                "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsImaging", "ThumbsStore", "ThumbsLibrary",
                "ThumbsPipeline", "ThumbsSamples", "ThumbsCoreTestSupport", "CVips", "CVipsShim",
            ],
            path: "Tests/ThumbsTestSupport"
        ),
        .testTarget(
            name: "ThumbsSupportTests",
            dependencies: [
                "ThumbsSupport", "ThumbsTestSupport", "ThumbsCoreTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(name: "ThumbsCoreTests", dependencies: ["ThumbsCore", "ThumbsCoreTestSupport"]),
        .testTarget(
            name: "ThumbsTestingTests",
            dependencies: [
                "ThumbsTesting", "ThumbsCore", "ThumbsRendering", "ThumbsSupport", "ThumbsCoreTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "ThumbsRenderingTests",
            dependencies: [
                "ThumbsRendering", "ThumbsCore", "ThumbsCoreTestSupport",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "ThumbsImagingTests",
            dependencies: [
                "ThumbsImaging", "ThumbsRendering", "ThumbsCore", "ThumbsSupport", "ThumbsSamples", "ThumbsTestSupport",
                "ThumbsCoreTestSupport", "CVips", "CVipsShim", "CHeif", "CHeifShim", "CResample", "CToneMap",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "ThumbsStoreTests",
            // The worker is listed so the process the tests run is built first. No codec: scripts/check
            // fails if one comes in through a dependency.
            dependencies: [
                "ThumbsStore", "ThumbsCore", "ThumbsSupport", "ThumbsCoreTestSupport", "thumbs-store-worker",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        // The layers' tests link no codec (scripts/check fails if one comes in through a
        // dependency): they render with ThumbsTesting's InMemoryRenderer. What decodes through a
        // layer is tested in ThumbsTests, beside the assembled module.
        .testTarget(
            name: "ThumbsLibraryTests",
            dependencies: [
                "ThumbsLibrary", "ThumbsCore", "ThumbsRendering", "ThumbsStore", "ThumbsSupport", "ThumbsTesting",
                "ThumbsCoreTestSupport", .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
        .testTarget(
            name: "ThumbsPipelineTests",
            dependencies: [
                "ThumbsPipeline", "ThumbsCore", "ThumbsRendering", "ThumbsLibrary", "ThumbsStore", "ThumbsSupport",
                "ThumbsTesting", "ThumbsCoreTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbsSettingsTests",
            dependencies: [
                "ThumbsSettings", "ThumbsCore", "ThumbsRendering", "ThumbsStore", "ThumbsLibrary", "ThumbsPipeline",
                "ThumbsSupport", "ThumbsCoreTestSupport",
            ]
        ),
        .testTarget(
            name: "ThumbsTests",
            // Thumbs, and what decodes through each layer (in a folder named after the layer): real
            // photos, videos, Live Photos, placeholders, the isolated renderer. The executables are
            // listed so the processes the tests start are built first.
            dependencies: [
                "Thumbs", "ThumbsSupport", "ThumbsCore", "ThumbsRendering", "ThumbsImaging", "ThumbsIsolation",
                "ThumbsStore", "ThumbsLibrary", "ThumbsPipeline", "ThumbsFreedesktop", "ThumbsServer", "ThumbsSamples",
                "ThumbsTestSupport", "ThumbsTesting", "ThumbsCoreTestSupport", "thumbs-journal-fault",
                "thumbs-render-worker",
                "thumbs-hostile-worker",
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "NIOFoundationEssentialsCompat", package: "swift-nio"),
            ]
        ),
        .testTarget(name: "ThumbsFreedesktopTests", dependencies: ["ThumbsFreedesktop"]),
        .testTarget(
            name: "ThumbsServerTests",
            dependencies: [
                "ThumbsServer", "ThumbsCore", "ThumbsLibrary", "ThumbsPipeline", "ThumbsStore", "ThumbsCoreTestSupport",
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "ThumbsBenchmarkingTests",
            dependencies: [
                "ThumbsBenchmarking", "ThumbsCore", "ThumbsImaging", "ThumbsLibrary", "ThumbsPipeline", "ThumbsStore",
                "ThumbsSupport", "ThumbsSamples", "ThumbsTestSupport", "ThumbsCoreTestSupport",
            ]
        ),
        .testTarget(name: "ThumbsOneFileTests", dependencies: ["ThumbsOneFile", "ThumbsCore"]),
        .testTarget(
            name: "ThumbsCommandTests",
            // The executable is listed so the process the tests run is built first.
            dependencies: [
                "Thumbs", "ThumbsBenchmarking", "ThumbsFreedesktop", "ThumbsSamples", "ThumbsTestSupport",
                "ThumbsCoreTestSupport", "thumbs",
                "thumbs-peak-memory", "thumbs-journal-fault", "thumbs-render-worker", "thumbs-thumbnailer",
            ]
        ),
        .testTarget(
            name: "ThumbsIsolationTests",
            // The worker is listed so the process the renderer starts is built first.
            dependencies: [
                "ThumbsIsolation", "ThumbsCore", "ThumbsRendering", "ThumbsImaging", "ThumbsSupport", "ThumbsSamples",
                "ThumbsTestSupport", "ThumbsCoreTestSupport", "CRenderSandbox",
                "thumbs-render-worker", "thumbs-hostile-worker",
                .product(name: "SystemPackage", package: "swift-system"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Each file of every Swift target imports the modules whose members it uses, not only the ones
// whose names it writes: a member reached through another file's import is an error.
for target in package.targets where target.type != .system && !target.name.hasPrefix("C") {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
