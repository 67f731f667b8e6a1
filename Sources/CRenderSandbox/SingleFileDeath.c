/* How a command that renders one file in its own process reports a decoder that did not return
 * (RenderSandbox.h: thumbs_report_single_file_death), as a worker's renderer would report it. */
#define _GNU_SOURCE
#include "AlternateStack.h"
#include "RenderSandbox.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <unistd.h>

/* Set once while the process has one thread, read-only after (but `done`). */
static const char *crashed_text, *out_of_memory_text, *timed_out_text, *temporary_text;
static int output_directory = -1;
static volatile sig_atomic_t done;

static void write_all(const char *text) {
    size_t length = strlen(text);
    while (length > 0) {
        ssize_t written = write(STDERR_FILENO, text, length);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return;
        text += written;
        length -= (size_t) written;
    }
}

/* Async-signal-safe only. After the file is done, a fault dies of its signal as it would without
 * this handler (SA_RESETHAND restored the default), and the timer is nothing. */
static void on_death(int signal, siginfo_t *info, void *context) {
    (void) info;
    (void) context;
    int saved = errno;
    if (done) {
        if (signal != SIGALRM)
            raise(signal);
        errno = saved;
        return;
    }
    done = 1;
    write_all(signal == SIGALRM ? timed_out_text : saved == ENOMEM ? out_of_memory_text : crashed_text);
    /* The raw call: glibc's unlinkat is no different, but this one is plainly async-signal-safe. */
    syscall(SYS_unlinkat, (long) output_directory, temporary_text, 0L);
    _exit(1);
}

int thumbs_report_single_file_death(const char *crashed_line, const char *out_of_memory_line,
    const char *timed_out_line, int directory_fd, const char *temporary_name, uint64_t time_limit_microseconds) {
    static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS };
    crashed_text = strdup(crashed_line);
    out_of_memory_text = strdup(out_of_memory_line);
    timed_out_text = strdup(timed_out_line);
    temporary_text = strdup(temporary_name);
    if (!crashed_text || !out_of_memory_text || !timed_out_text || !temporary_text)
        return -ENOMEM;
    output_directory = directory_fd;
    int rc = thumbs_catch_fatal_signals(fatal_signals, sizeof fatal_signals / sizeof fatal_signals[0], on_death);
    if (rc != 0 || time_limit_microseconds == 0)
        return rc;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_sigaction = on_death;
    sigfillset(&action.sa_mask); /* nothing interrupts the report */
    action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
    if (sigaction(SIGALRM, &action, NULL) != 0)
        return -errno;
    /* ITIMER_REAL runs on the monotonic clock, which stops while the machine sleeps, as the
     * renderer's clock for a worker does. */
    struct itimerval timer = {
        .it_value = { .tv_sec = (time_t) (time_limit_microseconds / 1000000),
            .tv_usec = (suseconds_t) (time_limit_microseconds % 1000000) },
    };
    return setitimer(ITIMER_REAL, &timer, NULL) == 0 ? 0 : -errno;
}

void thumbs_single_file_done(void) {
    done = 1;
}
