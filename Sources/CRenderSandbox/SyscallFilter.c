/* The render worker's seccomp-bpf allowlist (SyscallFilter.h), built with libseccomp. */
#define _GNU_SOURCE
#include "SyscallFilter.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

static const struct scmp_arg_cmp none; /* op 0: no condition */

/* A rule by name, on up to two conditions, once no rule before it failed. A call libseccomp does
 * not know, or one this architecture lacks (a negative pseudo-number), falls to the default. */
static void add_rule(int *rc, scmp_filter_ctx filter, uint32_t action, const char *name,
    struct scmp_arg_cmp first, struct scmp_arg_cmp second) {
    int number = seccomp_syscall_resolve_name(name);
    if (*rc != 0 || number == __NR_SCMP_ERROR)
        return;
    struct scmp_arg_cmp conditions[2] = { first, second };
    *rc = seccomp_rule_add_array(filter, action, number, !first.op ? 0 : !second.op ? 1 : 2, conditions);
    if (*rc != 0 && number < 0 && (*rc == -EDOM || *rc == -EFAULT))
        *rc = 0;
}

static void add_rules(int *rc, scmp_filter_ctx filter, uint32_t action, const char *const *names) {
    for (; *names; names++)
        add_rule(rc, filter, action, *names, none, none);
}

/* A descriptor or flags argument compared as the kernel reads it: an int, whose upper bits a
 * caller may leave unset. */
#define THUMBS_INT_ARG(index, value) SCMP_CMP((index), SCMP_CMP_MASKED_EQ, 0xFFFFFFFFULL, (uint64_t) (uint32_t) (value))

static const char *const allowed_calls[] = {
    "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev", "preadv2", "pwritev2",
    "lseek", "close", "close_range", "fstat", "dup", "dup2", "dup3", "mmap", "munmap", "mremap", "mprotect",
    "madvise", "mlock", "munlock", "mincore", "brk", "futex", "futex_waitv", "set_robust_list",
    "get_robust_list", "rseq", "set_tid_address", "exit", "exit_group", "rt_sigaction", "rt_sigprocmask",
    "rt_sigreturn", "rt_sigtimedwait", "rt_sigsuspend", "pause", "sigaltstack", "restart_syscall", "gettid",
    "getpid", "getppid", "clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep", "gettimeofday",
    "time", "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getparam", "sched_getscheduler",
    "sched_get_priority_max", "sched_get_priority_min", "getpriority", "getrandom", "getrlimit", "getrusage",
    "poll", "ppoll", "select", "pselect6", "epoll_create1", "epoll_ctl", "epoll_wait", "epoll_pwait",
    "epoll_pwait2", "eventfd2", "timerfd_create", "timerfd_settime", "timerfd_gettime", "pipe2", "recvmsg",
    "sendmsg", "recvfrom", "sendto", "shutdown", "getsockopt", "getuid", "geteuid", "getgid", "getegid",
    "getresuid", "getresgid", "uname", "sysinfo", "membarrier", "getcwd", NULL
};

/* Calls that name a path fail as Landlock would fail them: libraries that look for locale,
 * configuration or cache files (gettext, fontconfig) take EACCES in their stride. */
static const char *const path_calls[] = {
    "open", "openat", "openat2", "creat", "mknod", "mknodat", "link", "linkat", "unlink", "unlinkat",
    "rename", "renameat", "renameat2", "mkdir", "mkdirat", "rmdir", "symlink", "symlinkat", "chmod",
    "fchmodat", "fchmodat2", "chown", "lchown", "fchownat", "truncate", "stat", "lstat", "access",
    "faccessat", "faccessat2", "readlink", "readlinkat", "statfs", "chdir", "utime", "utimes", "utimensat", NULL
};

/* What a one-file command's output needs: the rename of its finished PNG onto OUTPUT, and the
 * removal of the unfinished one when its file fails. */
static const char *const output_calls[] = { "renameat2", "unlinkat" };

static int is_output_call(const char *name) {
    return !strcmp(name, output_calls[0]) || !strcmp(name, output_calls[1]);
}

/* The path calls, but those `mode` allows on the output's directory: a call with an
 * unconditional rule cannot take conditional ones as well. */
static void add_path_rules(int *rc, scmp_filter_ctx f, struct thumbs_filter_mode mode) {
    for (const char *const *names = path_calls; *names; names++)
        if (mode.output_directory_fd < 0 || !is_output_call(*names))
            add_rule(rc, f, SCMP_ACT_ERRNO(EACCES), *names, none, none);
    if (mode.output_directory_fd < 0 || *rc != 0)
        return;
    int directory = mode.output_directory_fd;
    /* renameat2(directory, from, directory, to, 0) and unlinkat(directory, name, 0); with other
     * arguments they fail with the default EPERM. */
    *rc = seccomp_rule_add(f, SCMP_ACT_ALLOW, SCMP_SYS(renameat2), 3, THUMBS_INT_ARG(0, directory),
        THUMBS_INT_ARG(2, directory), THUMBS_INT_ARG(4, 0));
    if (*rc == 0)
        *rc = seccomp_rule_add(
            f, SCMP_ACT_ALLOW, SCMP_SYS(unlinkat), 2, THUMBS_INT_ARG(0, directory), THUMBS_INT_ARG(2, 0));
}

/* Calls no decoder has a reason to make: a worker that makes one has been subverted. */
static const char *const fatal_calls[] = {
    "execve", "execveat", "ptrace", "fork", "vfork", "socket", "socketpair", "connect", "bind", "listen",
    "accept", "accept4", "process_vm_readv", "process_vm_writev", "kexec_load", "kexec_file_load", "mount",
    "umount2", "pivot_root", "chroot", "unshare", "setns", "bpf", "perf_event_open", "userfaultfd", "keyctl",
    "add_key", "request_key", NULL
};

/* fcntl without F_SETOWN and F_SETSIG, through which O_ASYNC would signal another process. */
static const int fcntl_commands[] = {
    F_DUPFD, F_DUPFD_CLOEXEC, F_GETFD, F_SETFD, F_GETFL, F_SETFL, F_GETLK, F_SETLK, F_SETLKW,
    F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW, F_GET_SEALS, F_ADD_SEALS, F_GETPIPE_SZ
};

static void add_conditional_rules(int *rc, scmp_filter_ctx f, uint32_t fatal) {
    const uint64_t self = (uint64_t) getpid(); /* fixed: the worker cannot fork */
    const uint32_t allow = SCMP_ACT_ALLOW, refuse_path = SCMP_ACT_ERRNO(EACCES);
    /* Threads, which glibc makes with clone once clone3 fails; any other clone is a fork. */
    add_rule(rc, f, allow, "clone", SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, CLONE_THREAD), none);
    add_rule(rc, f, fatal, "clone", SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0), none);
    /* fstat is newfstatat(fd, "", AT_EMPTY_PATH) in glibc. A path given along with the flag is
     * still looked up: its metadata (not its bytes) stays visible, which Landlock does not cover. */
    add_rule(rc, f, allow, "newfstatat", SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH), none);
    add_rule(rc, f, refuse_path, "newfstatat", SCMP_A3(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, 0), none);
    add_rule(rc, f, allow, "statx", SCMP_A2(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, AT_EMPTY_PATH), none);
    add_rule(rc, f, refuse_path, "statx", SCMP_A2(SCMP_CMP_MASKED_EQ, AT_EMPTY_PATH, 0), none);
    /* Signals only to the worker itself (raise, abort, pthread_kill); tkill to its first thread. */
    add_rule(rc, f, allow, "kill", SCMP_A0(SCMP_CMP_EQ, self, 0), none);
    add_rule(rc, f, allow, "tgkill", SCMP_A0(SCMP_CMP_EQ, self, 0), none);
    add_rule(rc, f, allow, "tkill", SCMP_A0(SCMP_CMP_EQ, self, 0), none);
    /* Limits are read (getrlimit is prlimit64 in glibc), never changed; the nice value only its own. */
    add_rule(rc, f, allow, "prlimit64", SCMP_A0(SCMP_CMP_EQ, 0, 0), SCMP_A2(SCMP_CMP_EQ, 0, 0));
    add_rule(rc, f, allow, "prlimit64", SCMP_A0(SCMP_CMP_EQ, self, 0), SCMP_A2(SCMP_CMP_EQ, 0, 0));
    add_rule(rc, f, allow, "setpriority", SCMP_A1(SCMP_CMP_EQ, 0, 0), none);
    add_rule(rc, f, allow, "prctl", SCMP_A0(SCMP_CMP_EQ, PR_SET_NAME, 0), none);
    add_rule(rc, f, allow, "prctl", SCMP_A0(SCMP_CMP_EQ, PR_GET_NAME, 0), none);
    for (size_t index = 0; index < sizeof fcntl_commands / sizeof fcntl_commands[0]; index++)
        add_rule(rc, f, allow, "fcntl", SCMP_A1(SCMP_CMP_EQ, (uint64_t) fcntl_commands[index], 0), none);
}

/* Everything not named fails with EPERM, so that a library probing an odd call fails softly.
 * clone3 says ENOSYS, which makes glibc fall back to clone, whose flags the filter can see. */
int thumbs_restrict_system_calls(struct thumbs_filter_mode mode) {
    const uint32_t fatal = mode.trap_fatal_calls ? SCMP_ACT_TRAP : SCMP_ACT_KILL_PROCESS;
    scmp_filter_ctx filter = seccomp_init(SCMP_ACT_ERRNO(EPERM));
    if (!filter)
        return -1;
    int rc = seccomp_attr_set(filter, SCMP_FLTATR_CTL_TSYNC, 1);
    if (rc == 0)
        rc = seccomp_attr_set(filter, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS);
    add_rules(&rc, filter, SCMP_ACT_ALLOW, allowed_calls);
    add_path_rules(&rc, filter, mode);
    add_rules(&rc, filter, fatal, fatal_calls);
    add_rule(&rc, filter, SCMP_ACT_ERRNO(ENOSYS), "clone3", none, none);
    add_conditional_rules(&rc, filter, fatal);
    if (rc == 0)
        rc = seccomp_load(filter);
    seccomp_release(filter);
    return rc;
}

