#ifndef RWATCH_CPCRE2_SHIM_H
#define RWATCH_CPCRE2_SHIM_H
// The 8-bit library: patterns and subjects are bytes, as file names are.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#endif
