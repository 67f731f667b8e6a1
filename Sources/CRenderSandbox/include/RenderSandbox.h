#ifndef THUMBS_RENDER_SANDBOX_H
#define THUMBS_RENDER_SANDBOX_H

// The process side of Thumbs' render workers: starting one, passing it descriptors over its
// socket, and the confinement a worker puts itself under before it reads a byte of input.
// No function aborts; those that can fail say how (most with a negative errno).

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// The descriptor a worker finds its socket at.
#define THUMBS_WORKER_SOCKET_FD 3

/// Starts `executable` with `argv` (NULL-terminated) and the environment `envp` (NULL-terminated),
/// with `socket_fd` as descriptor THUMBS_WORKER_SOCKET_FD, descriptor 0 on /dev/null, 1 and 2
/// as the caller's, and no other descriptor open. Returns the child's pid or -errno.
pid_t thumbs_spawn_worker(const char *executable, char *const argv[], char *const envp[], int socket_fd);

/// A descriptor that becomes readable when the child `pid` exits (Linux's pidfd, close-on-exec),
/// or -1 where the kernel has none: a worker's death is then seen even when another process
/// (one forked meanwhile, which runs no program) still holds a copy of its socket's end.
int thumbs_pidfd_open(pid_t pid);

/// Forks the calling process into a render worker: for a process that has one thread only (the
/// child of a multithreaded one may find a lock held for good). In the child, the socket's other
/// end is at THUMBS_WORKER_SOCKET_FD, /dev/null on 0, no descriptor above 3 open, and its name
/// "thumbs-render-worker"; 0 is returned there. The parent gets the child's pid, its own end of
/// the socket (close-on-exec) in `*socket_fd`, or -errno.
pid_t thumbs_fork_worker(int *socket_fd);

/// One sendmsg of `length` bytes on `socket`, with `descriptor` attached (SCM_RIGHTS) when it is
/// not negative; MSG_NOSIGNAL. Returns the bytes sent or -errno. On a stream socket a descriptor
/// travels with at least one byte only: sent with none, it is lost.
ssize_t thumbs_send_with_descriptor(int socket, const void *bytes, size_t length, int descriptor);

/// One recvmsg of at most `length` bytes from `socket`. A descriptor that came with them is
/// stored in `*descriptor` (close-on-exec), -1 when none did; any further descriptors are closed.
/// Returns the bytes received (0 at end of stream) or -errno.
ssize_t thumbs_receive_with_descriptor(int socket, void *bytes, size_t length, int *descriptor);

/// What thumbs_confine_worker put in force, as bits.
enum {
    THUMBS_CONFINED_NO_NEW_PRIVS = 1 << 0,
    THUMBS_CONFINED_NOT_DUMPABLE = 1 << 1,
    THUMBS_CONFINED_ADDRESS_SPACE = 1 << 2,
    THUMBS_CONFINED_LANDLOCK = 1 << 3,
    THUMBS_CONFINED_SECCOMP = 1 << 4,
};

/// Confines the calling process for good: no new privileges, not dumpable, an address-space limit
/// of `address_space_limit` bytes (0: none), a Landlock ruleset that grants no file-system access
/// (and no TCP bind/connect where the ABI has them), and a seccomp-bpf allowlist (libseccomp, on
/// every thread: TSYNC) in which opening a path fails with EACCES, and exec, fork (clone
/// without CLONE_THREAD), ptrace, socket, connect, bind, listen and accept kill the process.
/// Call it while the process has one thread (Landlock binds the calling thread and the threads
/// it starts later). The limit counts address space reserved, not used: each thread's stack
/// (8 MiB by default) and each malloc arena (64 MiB) count whole. A call the allowlist does not
/// name fails with EPERM. Returns the THUMBS_CONFINED_* bits in force; a part the kernel lacks is
/// left out (never an error), a part the kernel refused is -errno only for no_new_privs (nothing
/// after it can be applied without it).
int thumbs_confine_worker(uint64_t address_space_limit);

/// Confines a command that renders one file in its own process: thumbs_confine_worker's measures,
/// with two differences. Landlock grants MAKE_REG and REMOVE_FILE beneath `output_directory_fd`
/// (an O_PATH descriptor of the output's directory), and the seccomp filter allows
/// renameat2(output_directory_fd, _, output_directory_fd, _, 0) and
/// unlinkat(output_directory_fd, _, 0): what thumbs_rename_in_directory and
/// thumbs_unlink_in_directory need, and only while Landlock holds the names beneath the
/// directory (the filter cannot read a path: without Landlock it grants neither). The calls that
/// kill a worker raise SIGSYS instead (SECCOMP_RET_TRAP), still without being made, so that the
/// command's handler (thumbs_report_single_file_death) reports its file. Returns -EBUSY, having
/// changed nothing, when the process has another thread (Landlock would not hold it); otherwise
/// as thumbs_confine_worker.
int thumbs_confine_single_file(uint64_t address_space_limit, int output_directory_fd);

/// The folder at `path` opened for thumbs_confine_single_file (O_PATH, O_DIRECTORY,
/// close-on-exec): the descriptor or -errno.
int thumbs_open_directory(const char *path);

/// renameat2(directory_fd, from, directory_fd, to, 0): 0 or -errno.
int thumbs_rename_in_directory(int directory_fd, const char *from, const char *to);

/// unlinkat(directory_fd, name, 0): 0 or -errno.
int thumbs_unlink_in_directory(int directory_fd, const char *name);

/// How a command that renders one file in its own process ends when its decoder does not return:
/// installs handlers (on an alternate stack) for SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE
/// and SIGSYS (a call the seccomp filter traps) that write `crashed_line` to stderr, or
/// `out_of_memory_line` when the faulting thread's errno is ENOMEM, remove `temporary_name` in
/// `directory_fd` and exit with status 1; and, when `time_limit_microseconds` is not 0, a timer
/// of that much wall time (not counting a suspended machine) whose SIGALRM does the same with
/// `timed_out_line`. The texts are copied. Returns 0 or -errno.
int thumbs_report_single_file_death(const char *crashed_line, const char *out_of_memory_line,
    const char *timed_out_line, int directory_fd, const char *temporary_name, uint64_t time_limit_microseconds);

/// The command's file is done (its output renamed into place, or its failure reported): a fault or
/// the timer from now on ends the process as it would without the handlers, leaving its output.
void thumbs_single_file_done(void);

/// One OpenMP thread for the calling thread's parallel regions (LibRaw's), when OpenMP is loaded.
void thumbs_use_one_openmp_thread(void);

/// The Landlock ABI version the kernel offers, 0 when it has none (and in a confined worker,
/// whose seccomp filter refuses the question).
int thumbs_landlock_abi(void);

/// Whether the kernel filters system calls with seccomp-bpf (1) or not (0).
int thumbs_seccomp_available(void);

/// The process's address space now (VmSize), in bytes, or 0 when unknown. A confined worker
/// reads it through the /proc/self/statm descriptor thumbs_confine_worker opened first.
uint64_t thumbs_address_space_in_use(void);

/// Marks how the worker dies when it dies by a signal: called once before confinement, installs
/// a handler for SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT and SIGFPE (on an alternate stack)
/// that writes a message of the worker protocol to `report_fd` — its length (1, as 4 bytes
/// little-endian), then THUMBS_DEATH_OUT_OF_MEMORY when the faulting thread's errno is ENOMEM
/// (an allocation refused at the address-space limit ends in a trap or an abort), else
/// THUMBS_DEATH_FAULT — then dies of the signal with its default action.
/// The handlers replace any the process had. The alternate stack is the calling thread's only:
/// other threads handle the signal on their own stack, so a stack overflow there dies without a
/// report. Returns 0 or -errno.
enum { THUMBS_DEATH_FAULT = 'F', THUMBS_DEATH_OUT_OF_MEMORY = 'M' };
int thumbs_report_fatal_signals(int report_fd);

#endif
