#ifndef THUMBS_CLMDB_H
#define THUMBS_CLMDB_H
#include <lmdb.h>
#endif
