#ifndef THUMBS_CLIBRAW_H
#define THUMBS_CLIBRAW_H
#include <libraw/libraw.h>
#endif
