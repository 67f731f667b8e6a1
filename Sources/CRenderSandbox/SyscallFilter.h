#ifndef THUMBS_SYSCALL_FILTER_H
#define THUMBS_SYSCALL_FILTER_H

/* How a filter differs from a render worker's (all zero but the descriptor, -1: a worker's). */
struct thumbs_filter_mode {
    /* Not negative: renameat2 and unlinkat allowed with this directory descriptor as every
     * directory argument, and no flags (a one-file command's output; Landlock holds the names
     * to beneath the directory, which seccomp cannot read). */
    int output_directory_fd;
    /* The calls that kill a worker raise SIGSYS instead (SECCOMP_RET_TRAP), still without being
     * made, so that a one-file command's handler reports its file crashed. */
    int trap_fatal_calls;
};

/* Loads the worker's system-call allowlist on every thread of the process (seccomp, TSYNC):
 * the calls decoding needs; calls that name a path fail with EACCES; exec, fork, ptrace, new
 * sockets and the like kill the process; anything else fails with EPERM. `mode` says what a
 * one-file command's filter allows besides. 0, or nonzero when the kernel lacks seccomp or
 * refused the filter. */
int thumbs_restrict_system_calls(struct thumbs_filter_mode mode);

#endif
