/* A render worker forked from the calling process (RenderSandbox.h: thumbs_fork_worker). */
#define _GNU_SOURCE
#include "RenderSandbox.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

pid_t thumbs_fork_worker(int *socket_fd) {
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, ends) != 0)
        return -errno;
    pid_t pid = fork();
    if (pid < 0) {
        int failure = errno;
        close(ends[0]);
        close(ends[1]);
        return -failure;
    }
    if (pid > 0) {
        close(ends[1]);
        *socket_fd = ends[0];
        return pid;
    }
    /* The child: the worker's descriptors, as an exec'd worker has them. Failures here end the
     * child, which its parent sees as a worker that never greeted. */
    int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
    if (null < 0 || dup2(null, 0) < 0 || dup2(ends[1], THUMBS_WORKER_SOCKET_FD) < 0)
        _exit(71); /* EX_OSERR, as a worker that cannot confine itself ends */
    syscall(SYS_close_range, THUMBS_WORKER_SOCKET_FD + 1, ~0U, 0);
    /* The name `ps` and /proc show: a worker, not the command it was forked from. */
    prctl(PR_SET_NAME, "thumbs-render-worker", 0, 0, 0);
    return 0;
}
