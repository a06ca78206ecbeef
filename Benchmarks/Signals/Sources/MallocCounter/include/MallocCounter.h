#ifndef MALLOC_COUNTER_H
#define MALLOC_COUNTER_H
#include <stdint.h>

/// How many allocations (malloc, calloc, realloc of NULL, aligned) this
/// process has made since it started.
uint64_t malloc_counter_allocations(void);

#endif
