#ifndef THUMBS_ALTERNATE_STACK_H
#define THUMBS_ALTERNATE_STACK_H

#include <signal.h>
#include <stddef.h>

/* Gives the calling thread an alternate signal stack (64 KiB above a guard page) unless it has
 * one as large: fatal-signal handlers run there, so that a stack overflow is reported too.
 * 0 or -errno. */
int thumbs_install_alternate_stack(void);

/* Has `handler` report each of the `count` `signals`, once, on the alternate stack (installed
 * first), with every signal blocked while it runs. 0 or -errno. */
int thumbs_catch_fatal_signals(const int *signals, size_t count, void (*handler)(int, siginfo_t *, void *));

#endif
