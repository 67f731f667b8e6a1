#ifndef THUMBS_SYSCALL_FILTER_H
#define THUMBS_SYSCALL_FILTER_H

/* Loads the worker's system-call allowlist on every thread of the process (seccomp, TSYNC):
 * the calls decoding needs; calls that name a path fail with EACCES; exec, fork, ptrace, new
 * sockets and the like kill the process; anything else fails with EPERM. 0, or nonzero when the
 * kernel lacks seccomp or refused the filter. */
int thumbs_restrict_system_calls(void);

#endif
