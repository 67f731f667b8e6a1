#ifndef THUMBS_ALTERNATE_STACK_H
#define THUMBS_ALTERNATE_STACK_H

/* Gives the calling thread an alternate signal stack (64 KiB above a guard page) unless it has
 * one as large: fatal-signal handlers run there, so that a stack overflow is reported too.
 * 0 or -errno. */
int thumbs_install_alternate_stack(void);

#endif
