#ifndef THUMBS_CVIPS_H
#define THUMBS_CVIPS_H
#include <vips/vips.h>
#endif
