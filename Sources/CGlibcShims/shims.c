// Compiled with _GNU_SOURCE so that glibc declares what CGlibcShims.h
// forwards to (as swift-nio's CNIOLinux does).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

#include "CGlibcShims.h"

int CGlibcShims_pipe2(int fds[2], int flags) {
    return pipe2(fds, flags);
}

void *CGlibcShims_memmem(const void *haystack, size_t haystackLength, const void *needle, size_t needleLength) {
    return memmem(haystack, haystackLength, needle, needleLength);
}

void *CGlibcShims_memrchr(const void *bytes, int c, size_t length) {
    return memrchr(bytes, c, length);
}

int CGlibcShims_set_parent_death_signal(int sig) {
    return prctl(PR_SET_PDEATHSIG, (unsigned long)sig, 0UL, 0UL, 0UL);
}

int CGlibcShims_become_child_subreaper(void) {
    return prctl(PR_SET_CHILD_SUBREAPER, 1UL, 0UL, 0UL, 0UL);
}

int CGlibcShims_set_thread_name(const char *name) {
    return prctl(PR_SET_NAME, (unsigned long)name, 0, 0, 0);
}

static pthread_mutex_t spawn_fence = PTHREAD_MUTEX_INITIALIZER;

void CGlibcShims_spawn_fence_enter(void) {
    pthread_mutex_lock(&spawn_fence);
}

void CGlibcShims_spawn_fence_leave(void) {
    pthread_mutex_unlock(&spawn_fence);
}

int CGlibcShims_pidfd_open(int pid) {
#ifdef SYS_pidfd_open
    return (int)syscall(SYS_pidfd_open, pid, 0);
#else
    (void)pid;
    errno = ENOSYS;
    return -1;
#endif
}

int CGlibcShims_pidfd_send_signal(int fd, int sig) {
#ifdef SYS_pidfd_send_signal
    return (int)syscall(SYS_pidfd_send_signal, fd, sig, NULL, 0);
#else
    (void)fd;
    (void)sig;
    errno = ENOSYS;
    return -1;
#endif
}

#include <malloc.h>

int CGlibcShims_tune_malloc(int mmapThreshold, int arenaMax) {
    return mallopt(M_MMAP_THRESHOLD, mmapThreshold) && mallopt(M_ARENA_MAX, arenaMax);
}
