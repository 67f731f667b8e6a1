#ifndef THUMBS_DECODE_JOURNAL_H
#define THUMBS_DECODE_JOURNAL_H

#include <stdint.h>

/* The part of a decode journal that must run inside a fatal signal's handler, where only
 * async-signal-safe calls are allowed: which notes are under way, and marking them.
 *
 * A decode under way is entered with the journal's descriptor and its note's offset. When a
 * fatal signal (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGTRAP) comes, the handler marks the
 * note of the thread it came on; on a thread that has none (a decoding library's own worker
 * thread) it marks every note under way, since any of them may be the cause. It then restores
 * the handler there was before and lets the signal go on to it. */

/* Installs the handler, once. */
void thumbs_journal_watch_fatal_signals(void);

/* Notes that the calling thread decodes the file whose note is at `offset` of the journal open
 * at `descriptor`, until thumbs_journal_leave. Gives the thread an alternate signal stack first,
 * so that a decoder's stack overflow still runs the handler. Returns 0, or -1 when every place
 * of the table of decodes under way is taken (the decode is then not marked by a fault on
 * another thread). */
int thumbs_journal_enter(int descriptor, int64_t offset);

/* The calling thread's decode ended. */
void thumbs_journal_leave(void);

/* The first four bytes a marked note is given: "TDJC". */
extern const char thumbs_journal_crashed_magic[4];

#endif
