#ifndef THUMBS_CHEIF_H
#define THUMBS_CHEIF_H
#include <libheif/heif.h>
#include <libheif/heif_plugin.h>
#endif
