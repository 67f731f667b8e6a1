import Glibc
import ThumbsProcessTuning

// The desktop's thumbnailer (deploy/freedesktop/thumbs.thumbnailer): file managers run
// `thumbs-thumbnailer -s SIZE INPUT OUTPUT` once per file and size, so its start is paid for
// every thumbnail. It renders as `thumbs thumbnail` does, in a program that starts in half the
// time: no command-line parser, web server or cache is linked in. What it does not take it
// hands to `thumbs thumbnail` (`ThumbnailerProgram`).
ProcessTuning.limitMallocArenas()
ProcessTuning.keepFreedAllocations()
ProcessTuning.startLibvipsWithoutModules()
exit(ThumbnailerProgram.run(Array(CommandLine.arguments.dropFirst())))
