import ThumbsCore
import ThumbsRendering
import ThumbsLibrary
import ThumbsStore
import ThumbsSupport

/// What a warm goes through, a batch at a time: assets, and the files that fail before they are
/// assets (named like a photo but empty, unreadable).
public struct WarmBatch: Sendable {
    public var assets: [Asset]
    /// Files found but not listed as assets: failures of the run like a failed render.
    public var failures: [WarmJob.Failure]
    /// What else the walk noticed, no failure of a file (a link out of the library, say).
    public var issues: [LibraryIssue]
    /// Files gone from the library since the last warm: what every output forgets.
    public var gone: [Asset] = []
    /// How many of ``assets`` the cache recognised by their content under a new path.
    public var recognised = 0
    /// Assets of folders passed over as warmed: fresh without being listed.
    public var warmedAssets = 0
    /// Folders of a walk that passes over warmed folders whose every asset was given by now;
    /// nil for a batch of any other source.
    var folderEnds: [LibraryBatch.FolderEnd]?
    /// The roots of a library whose walk (every shard's) ended here, after what was gone.
    var walkedRoots: [String]?

    public init(assets: [Asset] = [], failures: [WarmJob.Failure] = [], issues: [LibraryIssue] = []) {
        self.assets = assets
        self.failures = failures
        self.issues = issues
    }

    /// A batch of a library walk: its issues that amount to a failure of a file are failures.
    public init(_ batch: LibraryBatch) {
        self.init(assets: batch.assets)
        gone = batch.gone
        recognised = batch.recognised
        warmedAssets = batch.warmedAssets
        for issue in batch.issues {
            if let error = issue.failure {
                failures.append(WarmJob.Failure(path: issue.fullPath, error: error, asset: issue.unlistedAsset))
            } else {
                issues.append(issue)
            }
        }
    }

    /// Files named one by one, each an asset beneath its own folder (a link named on purpose
    /// resolved first), inspected by `renderer`; those it cannot read are failures.
    public static func inspecting(files: [String], with renderer: any ThumbnailRendering) async throws -> WarmBatch {
        var batch = WarmBatch()
        for file in files {
            do {
                batch.assets.append(try await Asset.inspecting(file: file, with: renderer))
            } catch let error as ImagingError {
                batch.failures.append(WarmJob.Failure(path: file, error: error))
            }
        }
        return batch
    }

    /// Where the batches of a run come from.
    public enum Source: Sendable {
        /// Every asset of a library, as its walk finds them, keeping its folder listings: the
        /// last batch says which files are gone since the last such walk.
        case libraryForgettingGone(PhotoLibrary)
        /// Every asset of a library, as its walk finds them.
        case library(PhotoLibrary)
        /// One batch, as it is.
        case batch(WarmBatch)
    }

    /// The batches of `sources`, one source after the other; a library whose store is
    /// `warmedFolders`' walked passing over the folders it says are warmed.
    struct Batches: AsyncSequence, Sendable {
        typealias Element = WarmBatch
        let sources: [Source]
        let warmedFolders: (store: ThumbnailStore, context: UInt64)?

        func makeAsyncIterator() -> Iterator { Iterator(sources: sources[...], warmedFolders: warmedFolders) }

        struct Iterator: AsyncIteratorProtocol {
            var sources: ArraySlice<Source>
            let warmedFolders: (store: ThumbnailStore, context: UInt64)?
            var walk: AssetBatches.Iterator?
            var walkMarksFolderEnds = false
            /// The roots of the walk under way, when it walks them whole (no shard).
            var walkedWhole: [String]?

            mutating func next() async throws -> WarmBatch? {
                while true {
                    if var current = walk {
                        let batch = try await current.next()
                        walk = current
                        if let batch {
                            var warmBatch = WarmBatch(batch)
                            if walkMarksFolderEnds { warmBatch.folderEnds = batch.folderEnds }
                            return warmBatch
                        }
                        walk = nil
                        if let walked = walkedWhole {
                            walkedWhole = nil
                            var end = WarmBatch()
                            end.walkedRoots = walked
                            return end
                        }
                    }
                    switch sources.popFirst() {
                    case .library(let library)?: walk = assets(of: library, keepingListings: false)
                    case .libraryForgettingGone(let library)?: walk = assets(of: library, keepingListings: true)
                    case .batch(let batch)?: return batch
                    case nil: return nil
                    }
                }
            }

            private mutating func assets(of library: PhotoLibrary, keepingListings: Bool) -> AssetBatches.Iterator {
                walkedWhole = library.shard == nil ? library.roots : nil
                walkMarksFolderEnds = warmedFolders != nil && warmedFolders?.store === library.store
                guard walkMarksFolderEnds, let context = warmedFolders?.context else {
                    return library.assets(keepingListings: keepingListings).makeAsyncIterator()
                }
                return library.assets(keepingListings: keepingListings, skippingWarmedFolders: context)
                    .makeAsyncIterator()
            }
        }
    }
}
