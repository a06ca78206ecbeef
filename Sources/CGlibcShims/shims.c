// Compiled with _GNU_SOURCE so that glibc declares what CGlibcShims.h
// forwards to (as swift-nio's CNIOLinux does).
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <spawn.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <string.h>
#include <unistd.h>

#include "CGlibcShims.h"

#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 29)
#define HAS_ADDCHDIR 1
#else
#define HAS_ADDCHDIR 0
#endif

#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
#define HAS_ADDCLOSEFROM 1
#else
#define HAS_ADDCLOSEFROM 0
#endif

int CGlibcShims_has_addchdir(void) {
    return HAS_ADDCHDIR;
}

int CGlibcShims_has_addclosefrom(void) {
    return HAS_ADDCLOSEFROM;
}

int CGlibcShims_pipe2(int fds[2], int flags) {
    return pipe2(fds, flags);
}

void *CGlibcShims_memmem(const void *haystack, size_t haystackLength, const void *needle, size_t needleLength) {
    return memmem(haystack, haystackLength, needle, needleLength);
}

void *CGlibcShims_memrchr(const void *bytes, int c, size_t length) {
    return memrchr(bytes, c, length);
}

int CGlibcShims_posix_spawn_file_actions_addchdir_np(posix_spawn_file_actions_t *actions, const char *path) {
#if HAS_ADDCHDIR
    return posix_spawn_file_actions_addchdir_np(actions, path);
#else
    (void)actions;
    (void)path;
    return ENOSYS;
#endif
}

int CGlibcShims_posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from) {
#if HAS_ADDCLOSEFROM
    return posix_spawn_file_actions_addclosefrom_np(actions, from);
#else
    (void)actions;
    (void)from;
    return ENOSYS;
#endif
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

// MARK: A spawn straight into a cgroup

#include <linux/sched.h>
#include <sys/wait.h>
#include <signal.h>
#include <stdint.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

/// The kernel's struct sigaction (rt_sigaction(2)), not glibc's: the child
/// sets signals glibc keeps for itself (32, 33) too.
struct kernel_sigaction {
    void *handler;
    unsigned long flags;
    void *restorer;
    uint64_t mask;
};

/// Closes every descriptor from `from` up but `keep` (close_range, Linux
/// 5.9; one by one up to the usual limit before it).
__attribute__((no_sanitize("thread")))
static void close_from(int from, int keep) {
    if (keep > from) {
        if (syscall(SYS_close_range, from, keep - 1, 0) != 0) {
            for (int fd = from; fd < keep; fd++) syscall(SYS_close, fd);
        }
    }
    int above = keep >= from ? keep + 1 : from;
    if (syscall(SYS_close_range, above, ~0U, 0) != 0) {
        for (int fd = above; fd < 65536; fd++) syscall(SYS_close, fd);
    }
}

/// What the child does after clone3, with system calls only: it is a copy
/// of a threaded process, so no lock another thread held is usable (no
/// malloc, no stdio, no sanitizer interceptor). Reports a failure's errno
/// on `report` and exits 127; does not return.
__attribute__((no_sanitize("thread"), noreturn))
static void spawn_child(int report, const char *path, const CGlibcShims_spawn_step *steps, int count, int new_group,
                        const uint64_t *parent_mask, char *const argv[], char *const envp[]) {
    long result = 0;
    struct kernel_sigaction defaults = { .handler = SIG_DFL, .flags = 0, .restorer = 0, .mask = 0 };
    for (int sig = 1; sig <= 64; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, sig, &defaults, NULL, sizeof(uint64_t));
    }
    if (new_group && syscall(SYS_setpgid, 0, 0) != 0) goto fail;
    for (int i = 0; i < count; i++) {
        const CGlibcShims_spawn_step *step = &steps[i];
        switch (step->kind) {
        case CGlibcShims_STEP_OPEN:
            result = syscall(SYS_openat, AT_FDCWD, step->path, step->flags, 0666);
            if (result < 0) goto fail;
            if (result != step->fd) {
                if (syscall(SYS_dup3, (int)result, step->fd, 0) < 0) goto fail;
                syscall(SYS_close, (int)result);
            }
            break;
        case CGlibcShims_STEP_DUP2:
            if (step->source == step->fd) {
                if (syscall(SYS_fcntl, step->fd, F_SETFD, 0) < 0) goto fail;
            } else if (syscall(SYS_dup3, step->source, step->fd, 0) < 0) {
                goto fail;
            }
            break;
        case CGlibcShims_STEP_CLOSEFROM:
            // Every descriptor from there up, but the report pipe (close-on-exec).
            close_from(step->fd, report);
            break;
        case CGlibcShims_STEP_CHDIR:
            if (syscall(SYS_chdir, step->path) != 0) goto fail;
            break;
        }
    }
    uint64_t none = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, new_group ? &none : parent_mask, NULL, sizeof(uint64_t));
    syscall(SYS_execve, path, argv, envp);
fail:;
    int code = errno;
    syscall(SYS_write, report, &code, sizeof code);
    syscall(SYS_exit_group, 127);
    __builtin_unreachable();
}

int CGlibcShims_spawn_into_cgroup(int *pid, int cgroup, const char *path, const CGlibcShims_spawn_step *steps, int count,
                                  int new_group, char *const argv[], char *const envp[]) {
    // The report pipe, numbered above every descriptor a step names, so no step overwrites it.
    int lowest = 3;
    for (int i = 0; i < count; i++) {
        if (steps[i].fd >= lowest) lowest = steps[i].fd + 1;
        if (steps[i].kind == CGlibcShims_STEP_DUP2 && steps[i].source >= lowest) lowest = steps[i].source + 1;
    }
    int pipe_ends[2];
    if (pipe2(pipe_ends, O_CLOEXEC) != 0) return -1;
    int report = fcntl(pipe_ends[1], F_DUPFD_CLOEXEC, lowest);
    close(pipe_ends[1]);
    if (report < 0) {
        int code = errno;
        close(pipe_ends[0]);
        errno = code;
        return -1;
    }
    // No handler of rwatch's may run in the child before it resets them.
    uint64_t all = ~(uint64_t)0, parent_mask = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &parent_mask, sizeof(uint64_t));
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_VFORK | CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.cgroup = (uint64_t)cgroup;
    long child = syscall(SYS_clone3, &args, sizeof args);
    if (child == 0) spawn_child(report, path, steps, count, new_group, &parent_mask, argv, envp);
    int clone_error = errno;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &parent_mask, NULL, sizeof(uint64_t));
    close(report);
    if (child < 0) {
        close(pipe_ends[0]);
        errno = clone_error;
        return -1;
    }
    // The child has exec'd (the pipe closed with nothing in it) or failed.
    int code = 0;
    ssize_t got;
    do { got = read(pipe_ends[0], &code, sizeof code); } while (got < 0 && errno == EINTR);
    close(pipe_ends[0]);
    if (got == (ssize_t)sizeof code) {
        int status;
        while (waitpid((pid_t)child, &status, 0) < 0 && errno == EINTR) {}
        return code ? code : ECHILD;
    }
    *pid = (pid_t)child;
    return 0;
}
