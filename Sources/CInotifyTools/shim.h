#ifndef RWATCH_CINOTIFYTOOLS_SHIM_H
#define RWATCH_CINOTIFYTOOLS_SHIM_H
#include <sys/inotify.h>
#include <inotifytools/inotifytools.h>
#endif
