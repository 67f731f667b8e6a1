/* One trampoline per function of LibrarySymbols.h, under the function's own name and hidden (the
 * program's callers bind to it; it is not exported to the libraries it opens). It jumps through
 * thumbs_slot_NAME (LibraryLoader.c) without touching an argument register, so every signature,
 * variadic ones included, passes through unchanged. */
#include "LibrarySymbols.h"

#if defined(__x86_64__)
.macro thumbs_trampoline name
    .text
    .p2align 4
    .globl \name
    .hidden \name
    .type \name, @function
\name:
    jmp *thumbs_slot_\name(%rip)
    .size \name, . - \name
.endm
#elif defined(__aarch64__)
/* x16 is the intra-procedure-call scratch register, free at a call's entry. */
.macro thumbs_trampoline name
    .text
    .p2align 2
    .globl \name
    .hidden \name
    .type \name, %function
\name:
    adrp x16, thumbs_slot_\name
    ldr x16, [x16, :lo12:thumbs_slot_\name]
    br x16
    .size \name, . - \name
.endm
#else
#error "Thumbs' library trampolines are written for x86-64 and AArch64"
#endif

#define THUMBS_TRAMPOLINE(name) thumbs_trampoline name;
THUMBS_VIPS_SYMBOLS(THUMBS_TRAMPOLINE)
THUMBS_FFMPEG_SYMBOLS(THUMBS_TRAMPOLINE)
THUMBS_HEIF_SYMBOLS(THUMBS_TRAMPOLINE)
THUMBS_LIBRAW_SYMBOLS(THUMBS_TRAMPOLINE)
THUMBS_AVIF_SYMBOLS(THUMBS_TRAMPOLINE)

/* No executable stack. */
.section .note.GNU-stack, "", %progbits
