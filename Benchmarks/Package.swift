// swift-tools-version:6.1
// Benchmarks live in their own package, so the main build stays lean: run them from this folder
// with `swift package benchmark` (see docs/BENCHMARKS.md).
import PackageDescription

let package = Package(
    name: "ThumbsBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        // Named, because a path dependency is otherwise known by its folder name, which differs
        // between clones.
        .package(name: "Thumbs", path: ".."),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        // liblmdb itself, for the raw `mdb_get` the store's reads are compared with.
        .systemLibrary(name: "CLMDBRaw", pkgConfig: "lmdb", providers: [.apt(["liblmdb-dev"])]),
        // Temporary folders that do not outlive the run.
        .target(name: "BenchmarkSupport"),
        benchmarkTarget("StoreBenchmarks", extra: ["CLMDBRaw"]),
        benchmarkTarget("LibraryBenchmarks", extra: [.product(name: "ThumbsSamples", package: "Thumbs")]),
        benchmarkTarget("PipelineBenchmarks", extra: [.product(name: "ThumbsProcessTuning", package: "Thumbs")]),
    ],
    swiftLanguageModes: [.v6]
)

/// A package-benchmark suite in Benchmarks/<name>, on the Thumbs library.
func benchmarkTarget(_ name: String, extra: [Target.Dependency] = []) -> Target {
    .executableTarget(
        name: name,
        dependencies: [
            .product(name: "Benchmark", package: "benchmark"),
            .product(name: "Thumbs", package: "Thumbs"),
            "BenchmarkSupport",
        ] + extra,
        path: "Benchmarks/\(name)",
        plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    )
}

// As in the package it measures: each file imports the modules whose members it uses.
for target in package.targets where target.type != .system {
    target.swiftSettings = (target.swiftSettings ?? []) + [.enableUpcomingFeature("MemberImportVisibility")]
}
