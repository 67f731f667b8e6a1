import Glibc
import ThumbsIsolation
import ThumbsProcessTuning

// A render worker of Thumbs' IsolatedThumbnailRenderer: started by the renderer with its socket
// at descriptor 3, never by hand. Tuned as `thumbs` is, for it does the decoding; few arenas
// also keep the address space, which the worker's limit counts, small.
ProcessTuning.limitMallocArenas()
ProcessTuning.keepFreedAllocations()
ProcessTuning.startLibvipsWithoutModules()
exit(RenderWorkerProcess.main())
