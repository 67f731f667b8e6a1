#include "CDecodeJournal.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

const char thumbs_journal_crashed_magic[4] = { 'T', 'D', 'J', 'C' };

/* The decodes under way: a descriptor and an offset plus one (0: the place is free). More places
 * than any pool has threads. */
#define THUMBS_JOURNAL_PLACES 512
static _Atomic int64_t under_way_offset[THUMBS_JOURNAL_PLACES];
static _Atomic int under_way_descriptor[THUMBS_JOURNAL_PLACES];

/* The calling thread's place in the table, or -1. */
static __thread int current_place = -1;
static __thread int has_alternate_stack = 0;

static const int fatal_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP };
#define THUMBS_FATAL_SIGNALS (sizeof fatal_signals / sizeof fatal_signals[0])
static struct sigaction previous[THUMBS_FATAL_SIGNALS];
static pthread_once_t installed = PTHREAD_ONCE_INIT;

static void thumbs_journal_mark(int place) {
    int64_t offset = atomic_load(&under_way_offset[place]);
    int descriptor = atomic_load(&under_way_descriptor[place]);
    if (offset > 0 && descriptor >= 0)
        (void) pwrite(descriptor, thumbs_journal_crashed_magic, sizeof thumbs_journal_crashed_magic,
            (off_t) (offset - 1));
}

/* Only async-signal-safe calls: atomic loads, pwrite, write, sigaction, raise. */
static void thumbs_journal_on_fatal_signal(int signal, siginfo_t *info, void *context) {
    (void) context;
    int saved = errno;
    int marked = 0;
    if (current_place >= 0) {
        thumbs_journal_mark(current_place);
        marked = 1;
    } else {
        for (int place = 0; place < THUMBS_JOURNAL_PLACES; place++) {
            if (atomic_load(&under_way_offset[place]) > 0) {
                thumbs_journal_mark(place);
                marked = 1;
            }
        }
    }
    if (marked) {
        static const char line[] =
            "thumbs: a decoder crashed; the next run skips the file it was decoding until it changes\n";
        (void) write(STDERR_FILENO, line, sizeof line - 1);
    }
    for (unsigned index = 0; index < THUMBS_FATAL_SIGNALS; index++) {
        if (fatal_signals[index] == signal)
            sigaction(signal, &previous[index], NULL);
    }
    /* A fault happens again as the handler returns, now to the handler before; a signal that
     * was sent (abort, kill) is sent again. */
    if (!info || info->si_code <= 0)
        raise(signal);
    errno = saved;
}

static void thumbs_journal_install(void) {
    for (unsigned index = 0; index < THUMBS_FATAL_SIGNALS; index++) {
        struct sigaction action = { 0 };
        action.sa_sigaction = thumbs_journal_on_fatal_signal;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(fatal_signals[index], &action, &previous[index]);
    }
}

void thumbs_journal_watch_fatal_signals(void) {
    pthread_once(&installed, thumbs_journal_install);
}

/* An alternate stack for the thread, unless it has one (the Swift runtime's or a sanitizer's):
 * kept for the thread's life. */
static void thumbs_journal_ensure_alternate_stack(void) {
    if (has_alternate_stack)
        return;
    has_alternate_stack = 1;
    stack_t current;
    if (sigaltstack(NULL, &current) == 0 && !(current.ss_flags & SS_DISABLE))
        return;
    size_t size = 64 * 1024;
    stack_t stack = { .ss_sp = malloc(size), .ss_size = size, .ss_flags = 0 };
    if (stack.ss_sp && sigaltstack(&stack, NULL) != 0)
        free(stack.ss_sp);
}

int thumbs_journal_enter(int descriptor, int64_t offset) {
    thumbs_journal_ensure_alternate_stack();
    for (int place = 0; place < THUMBS_JOURNAL_PLACES; place++) {
        /* Taken (-1) before it is filled: the handler reads a place only once its offset is set,
         * and by then its descriptor is. */
        int64_t free_place = 0;
        if (!atomic_compare_exchange_strong(&under_way_offset[place], &free_place, -1))
            continue;
        atomic_store(&under_way_descriptor[place], descriptor);
        atomic_store(&under_way_offset[place], offset + 1);
        current_place = place;
        return 0;
    }
    return -1;
}

void thumbs_journal_leave(void) {
    if (current_place < 0)
        return;
    atomic_store(&under_way_offset[current_place], 0);
    current_place = -1;
}
