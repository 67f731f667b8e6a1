// Runs a program and reports its peak resident memory, for the command tests' memory checks.
//
//   thumbs-peak-memory PROGRAM [ARGUMENTS...]
//
// The program inherits this process's standard output and error; its peak (the kernel's
// ru_maxrss, read as it is reaped) is printed last on standard error as "peak-resident-bytes N",
// and this process exits with the program's status. A test cannot measure its own child so: the
// kernel carries the parent's peak into the child's ru_maxrss when the child starts another
// program, and a test process holding large fixtures would report that instead. Started from
// this small process, the program's figure is its own.

import Glibc

func report(_ line: String) {
    var text = line + "\n"
    text.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
guard let program = arguments.first else {
    report("usage: thumbs-peak-memory PROGRAM [ARGUMENTS...]")
    exit(2)
}
let argv = arguments.map { strdup($0) } + [nil]
var child: pid_t = 0
let spawned = posix_spawn(&child, program, nil, nil, argv, environ)
guard spawned == 0 else {
    report("thumbs-peak-memory: cannot start \(program): \(String(cString: strerror(spawned)))")
    exit(2)
}
var status: Int32 = 0
var usage = rusage()
while wait4(child, &status, 0, &usage) < 0 && errno == EINTR {}
// ru_maxrss is in KiB on Linux.
report("peak-resident-bytes \(usage.ru_maxrss * 1024)")
let signal = status & 0x7F
exit(signal == 0 ? (status >> 8) & 0xFF : 128 + signal)
