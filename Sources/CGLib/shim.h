#ifndef THUMBS_CGLIB_H
#define THUMBS_CGLIB_H
#include <glib.h>
#endif
