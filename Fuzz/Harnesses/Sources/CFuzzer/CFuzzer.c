// The target exists for its header: libFuzzer itself is linked by -sanitize=fuzzer.
#include "CFuzzer.h"
