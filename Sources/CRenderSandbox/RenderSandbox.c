/* The render worker's process layer (RenderSandbox.h): spawning, descriptor passing, and the
 * confinement a worker enters before it reads untrusted bytes. */
#define _GNU_SOURCE
#include "RenderSandbox.h"
#include "AlternateStack.h"
#include "SyscallFilter.h"

#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/landlock.h>

/* Debian 12's linux-libc-dev declares Landlock as of ABI 2 (REFER); later rights are defined here. */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15)
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* struct landlock_ruleset_attr as of ABI 6. The kernel takes a larger struct than it knows as long
 * as the fields it does not know are zero, so one size serves every ABI. */
struct thumbs_ruleset_attr {
    uint64_t handled_access_fs;
    uint64_t handled_access_net;
    uint64_t scoped;
};

int thumbs_pidfd_open(pid_t pid) {
    long descriptor = syscall(SYS_pidfd_open, pid, 0);
    return descriptor < 0 ? -1 : (int) descriptor;
}

pid_t thumbs_spawn_worker(const char *executable, char *const argv[], char *const envp[], int socket_fd) {
    /* A close-on-exec copy above 3: the dup2 to 3 then always clears close-on-exec (a dup2 of 3
     * onto itself would not everywhere), /dev/null on 0 cannot replace a socket that was 0,
     * and closefrom(4) closes the copy in the child. */
    int source = fcntl(socket_fd, F_DUPFD_CLOEXEC, THUMBS_WORKER_SOCKET_FD + 1);
    if (source < 0)
        return -errno;
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc == 0 && (rc = posix_spawnattr_init(&attributes)) != 0)
        posix_spawn_file_actions_destroy(&actions);
    if (rc != 0) {
        close(source);
        return -rc;
    }
    /* The server's threads block signals and ignore some (SIGPIPE); a worker starts with none
     * blocked and every disposition the default. */
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    rc = posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    if (rc == 0)
        rc = posix_spawn_file_actions_adddup2(&actions, source, THUMBS_WORKER_SOCKET_FD);
    if (rc == 0)
        rc = posix_spawn_file_actions_addclosefrom_np(&actions, THUMBS_WORKER_SOCKET_FD + 1);
    if (rc == 0)
        rc = posix_spawnattr_setsigmask(&attributes, &none);
    if (rc == 0)
        rc = posix_spawnattr_setsigdefault(&attributes, &all);
    if (rc == 0)
        rc = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
    pid_t pid = -1;
    if (rc == 0)
        rc = posix_spawn(&pid, executable, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    close(source);
    return rc == 0 ? pid : -rc;
}

ssize_t thumbs_send_with_descriptor(int socket, const void *bytes, size_t length, int descriptor) {
    struct iovec vector = { .iov_base = (void *) bytes, .iov_len = length };
    struct msghdr message = { .msg_iov = &vector, .msg_iovlen = 1 };
    union {
        char bytes[CMSG_SPACE(sizeof(int))];
        struct cmsghdr alignment;
    } control;
    memset(&control, 0, sizeof control);
    if (descriptor >= 0) {
        message.msg_control = control.bytes;
        message.msg_controllen = sizeof control.bytes;
        struct cmsghdr *header = CMSG_FIRSTHDR(&message);
        header->cmsg_level = SOL_SOCKET;
        header->cmsg_type = SCM_RIGHTS;
        header->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(header), &descriptor, sizeof(int));
    }
    ssize_t sent;
    do
        sent = sendmsg(socket, &message, MSG_NOSIGNAL);
    while (sent < 0 && errno == EINTR);
    return sent < 0 ? -errno : sent;
}

/* Room for more descriptors than the protocol sends, so that extra ones arrive to be closed
 * (the kernel drops those beyond the room and sets MSG_CTRUNC: closed all the same). */
#define THUMBS_RECEIVED_DESCRIPTORS_ROOM 8

ssize_t thumbs_receive_with_descriptor(int socket, void *bytes, size_t length, int *descriptor) {
    if (descriptor)
        *descriptor = -1;
    struct iovec vector = { .iov_base = bytes, .iov_len = length };
    union {
        char bytes[CMSG_SPACE(sizeof(int) * THUMBS_RECEIVED_DESCRIPTORS_ROOM)];
        struct cmsghdr alignment;
    } control;
    struct msghdr message = {
        .msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.bytes, .msg_controllen = sizeof control.bytes
    };
    ssize_t received;
    do
        received = recvmsg(socket, &message, MSG_CMSG_CLOEXEC);
    while (received < 0 && errno == EINTR);
    if (received < 0)
        return -errno;
    int kept = -1;
    for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
        if (header->cmsg_level != SOL_SOCKET || header->cmsg_type != SCM_RIGHTS || header->cmsg_len < CMSG_LEN(0))
            continue;
        size_t count = (header->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        for (size_t index = 0; index < count; index++) {
            int received_descriptor;
            memcpy(&received_descriptor, CMSG_DATA(header) + index * sizeof(int), sizeof(int));
            if (kept < 0 && descriptor)
                kept = received_descriptor;
            else
                close(received_descriptor);
        }
    }
    if (descriptor)
        *descriptor = kept;
    return received;
}

/* /proc/self/statm, opened by thumbs_confine_worker before Landlock and seccomp forbid opening
 * it; set while the process has one thread, read-only after. */
static int statm_descriptor = -1;

uint64_t thumbs_address_space_in_use(void) {
    int descriptor = statm_descriptor;
    if (descriptor < 0 && (descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC)) < 0)
        return 0;
    char text[128];
    ssize_t count;
    do /* procfs renders the file anew for a read at offset 0 */
        count = pread(descriptor, text, sizeof text - 1, 0);
    while (count < 0 && errno == EINTR);
    if (descriptor != statm_descriptor)
        close(descriptor);
    long page = sysconf(_SC_PAGESIZE);
    if (count <= 0 || page <= 0)
        return 0;
    text[count] = '\0';
    char *end;
    unsigned long long pages = strtoull(text, &end, 10);
    return end == text ? 0 : (uint64_t) pages * (uint64_t) page;
}

int thumbs_landlock_abi(void) {
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    return abi > 0 ? (int) abi : 0;
}

int thumbs_seccomp_available(void) {
    int mode = prctl(PR_GET_SECCOMP, 0, 0, 0, 0);
    if (mode < 0) /* EINVAL: a kernel without seccomp; anything else: a filter refused the call */
        return errno == EINVAL ? 0 : 1;
    if (mode > 0)
        return 1;
    /* Filter mode with the action the worker's filter needs, asked of the kernel, not of /proc. */
    uint32_t action = SECCOMP_RET_KILL_PROCESS;
    return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0 ? 1 : 0;
}

static int limit_address_space(uint64_t limit) {
    struct rlimit current;
    if (getrlimit(RLIMIT_AS, &current) != 0)
        return -1;
    rlim_t value = (rlim_t) limit; /* never above what is in force already */
    if (value > current.rlim_max)
        value = current.rlim_max;
    if (value > current.rlim_cur)
        value = current.rlim_cur;
    struct rlimit lowered = { .rlim_cur = value, .rlim_max = value };
    return setrlimit(RLIMIT_AS, &lowered);
}

/* A ruleset that handles every right the kernel's ABI knows and grants none of them: no path can
 * be opened, made or removed, no TCP port bound or connected, and no signal or abstract socket
 * reaches outside the worker. Descriptors the worker already holds keep working. With
 * `output_directory_fd` not negative, one grant: regular files made and removed beneath that
 * directory, which a rename within it needs (never their bytes read or written through a path). */
static int restrict_with_landlock(int output_directory_fd) {
    int abi = thumbs_landlock_abi();
    if (abi <= 0)
        return -1;
    struct thumbs_ruleset_attr attr = {
        .handled_access_fs = ((1ULL << 13) - 1) /* ABI 1's 13 rights, EXECUTE to MAKE_SYM */
            | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) | (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0)
            | (abi >= 5 ? LANDLOCK_ACCESS_FS_IOCTL_DEV : 0),
        .handled_access_net = abi >= 4 ? LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP : 0,
        .scoped = abi >= 6 ? LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL : 0,
    };
    int ruleset = (int) syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0)
        return -1;
    long rc = 0;
    if (output_directory_fd >= 0) {
        struct landlock_path_beneath_attr beneath = {
            .allowed_access = LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_REMOVE_FILE,
            .parent_fd = output_directory_fd,
        };
        rc = syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &beneath, 0);
    }
    if (rc == 0)
        rc = syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return rc == 0 ? 0 : -1;
}

/* The threads of the process, or 0 when they cannot be counted. */
static int thread_count(void) {
    DIR *tasks = opendir("/proc/self/task");
    if (!tasks)
        return 0;
    int count = 0;
    for (struct dirent *entry; (entry = readdir(tasks)) != NULL;)
        if (entry->d_name[0] != '.')
            count++;
    closedir(tasks);
    return count;
}

/* Under a sanitizer a worker is held in by less, and says so by the bits it leaves out:
 * AddressSanitizer reserves terabytes of shadow memory (no address-space limit), and a sanitizer
 * writes its report to a file it opens then, and symbolizes it in a process it starts (no Landlock,
 * no seccomp), or a memory error in a decoder would go unreported. */
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__)
#define THUMBS_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer)
#define THUMBS_SANITIZED 1
#endif
#endif

/* The worker's confinement, or (`output_directory_fd` not negative) a one-file command's: the
 * same measures, plus a rename within the output's directory once Landlock holds it there. */
static int confine(uint64_t address_space_limit, int output_directory_fd) {
#ifdef THUMBS_SANITIZED
    address_space_limit = 0;
#endif
    /* Landlock binds the calling thread and the threads it starts later, not those already
     * running: with another thread alive it is not in force for the whole process, and not said.
     * A one-file command grants a rename, which only Landlock holds to one directory: it is not
     * confined at all then (nothing changed yet), and renders as it would without this. */
    int alone = thread_count() == 1;
    if (output_directory_fd >= 0 && !alone)
        return -EBUSY;
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
        return -errno;
    int bits = THUMBS_CONFINED_NO_NEW_PRIVS;
    if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0)
        bits |= THUMBS_CONFINED_NOT_DUMPABLE;
    if (address_space_limit > 0 && limit_address_space(address_space_limit) == 0)
        bits |= THUMBS_CONFINED_ADDRESS_SPACE;
    if (statm_descriptor < 0)
        statm_descriptor = open("/proc/self/statm", O_RDONLY | O_CLOEXEC);
#ifndef THUMBS_SANITIZED
    int landlock = restrict_with_landlock(output_directory_fd) == 0 && alone;
    if (landlock)
        bits |= THUMBS_CONFINED_LANDLOCK;
    /* Without Landlock the filter grants no rename: seccomp cannot see which names it is given. */
    struct thumbs_filter_mode mode = {
        .output_directory_fd = landlock ? output_directory_fd : -1,
        .trap_fatal_calls = output_directory_fd >= 0,
    };
    if (thumbs_restrict_system_calls(mode) == 0)
        bits |= THUMBS_CONFINED_SECCOMP;
#endif
    return bits;
}

int thumbs_confine_worker(uint64_t address_space_limit) {
    return confine(address_space_limit, -1);
}

int thumbs_confine_single_file(uint64_t address_space_limit, int output_directory_fd) {
    if (output_directory_fd < 0)
        return -EBADF;
    return confine(address_space_limit, output_directory_fd);
}

int thumbs_open_directory(const char *path) {
    int descriptor = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
    return descriptor >= 0 ? descriptor : -errno;
}

int thumbs_rename_in_directory(int directory_fd, const char *from, const char *to) {
    return syscall(SYS_renameat2, (long) directory_fd, from, (long) directory_fd, to, 0L) == 0 ? 0 : -errno;
}

int thumbs_unlink_in_directory(int directory_fd, const char *name) {
    return syscall(SYS_unlinkat, (long) directory_fd, name, 0L) == 0 ? 0 : -errno;
}

static volatile sig_atomic_t report_descriptor = -1;

/* Async-signal-safe only. The handler was reset to the default as it ran (SA_RESETHAND): the
 * signal raised again is delivered as the handler returns, and kills (a fault would also recur). */
static void on_fatal_signal(int signal, siginfo_t *info, void *context) {
    (void) info;
    (void) context;
    int saved = errno;
    /* A message of the worker protocol: its length (1, little-endian), then the cause. */
    char death[5] = { 1, 0, 0, 0, saved == ENOMEM ? THUMBS_DEATH_OUT_OF_MEMORY : THUMBS_DEATH_FAULT };
    int descriptor = report_descriptor;
    if (descriptor >= 0) {
        ssize_t written = write(descriptor, death, sizeof death);
        (void) written;
    }
    raise(signal);
    errno = saved;
}

/* The alternate stack is the calling thread's: a thread without one handles the signal on its own
 * stack, which a stack overflow leaves no room on (it then dies without a report). */
int thumbs_install_alternate_stack(void) {
    const size_t size = 64 * 1024; /* many times MINSIGSTKSZ, AVX-512 and AMX state included */
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE) && current.ss_size >= size)
        return 0;
    char *base =
        mmap(NULL, size + (size_t) page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (base == MAP_FAILED)
        return -errno;
    stack_t stack = { .ss_sp = base + page, .ss_size = size, .ss_flags = 0 };
    /* The lowest page a guard, so that an overflow of the handler faults rather than tramples. */
    if (mprotect(base, (size_t) page, PROT_NONE) != 0 || sigaltstack(&stack, NULL) != 0) {
        int error = errno;
        munmap(base, size + (size_t) page);
        return -error;
    }
    return 0;
}

int thumbs_report_fatal_signals(int report_fd) {
    static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };
    report_descriptor = report_fd;
    return thumbs_catch_fatal_signals(fatal_signals, sizeof fatal_signals / sizeof fatal_signals[0], on_fatal_signal);
}

int thumbs_catch_fatal_signals(const int *signals, size_t count, void (*handler)(int, siginfo_t *, void *)) {
    int rc = thumbs_install_alternate_stack();
    if (rc != 0)
        return rc;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESETHAND;
    sigfillset(&action.sa_mask); /* nothing interrupts the report */
    for (size_t index = 0; index < count; index++) {
        if (sigaction(signals[index], &action, NULL) != 0)
            return -errno;
    }
    return 0;
}

void thumbs_use_one_openmp_thread(void) {
    /* LibRaw is built with OpenMP (libgomp): each of its parallel regions would start a thread
     * per core in every worker, each with a stack counted against the address-space limit, and
     * the workers already use the cores. Looked up by name: nothing else of Thumbs links libgomp. */
    void (*set_threads)(int) = (void (*)(int)) dlsym(RTLD_DEFAULT, "omp_set_num_threads");
    if (set_threads)
        set_threads(1);
}
