// libFuzzer's driver, from the toolchain's runtime that -sanitize=fuzzer links in (nothing is
// linked for a plain build, which never calls it). SwiftPM makes every executable's entry point
// its own `main`, so libFuzzer's `main` never runs: thumbs-fuzz's `main` hands the process to
// the driver instead.
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));
