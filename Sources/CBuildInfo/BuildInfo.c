#include "CBuildInfo.h"

// Written by the Makefile (Packaging/build-info.sh), ignored by git.
#if __has_include("build-info.h")
#include "build-info.h"
#endif

#ifndef RWATCH_COMMIT
#define RWATCH_COMMIT ""
#endif
#ifndef RWATCH_SWIFT_VERSION
#define RWATCH_SWIFT_VERSION ""
#endif

const char *CBuildInfo_commit(void) { return RWATCH_COMMIT; }

const char *CBuildInfo_swift_version(void) { return RWATCH_SWIFT_VERSION; }
