#ifndef THUMBS_CAVIF_H
#define THUMBS_CAVIF_H
#include <avif/avif.h>
#endif
