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
#include <sys/mman.h>
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

/// What the child needs, on the parent's stack: the parent waits
/// (CLONE_VFORK) until the child has exec'd or exited, and shares its
/// memory (CLONE_VM), so the child writes `error` there.
struct spawn_request {
    const char *path;
    const CGlibcShims_spawn_step *steps;
    int count;
    int new_group;
    uint64_t parent_mask;
    char *const *argv;
    char *const *envp;
    volatile int error;
};

/// What the child does, on a stack of its own, with system calls only
/// (the memory is the parent's: no lock, no malloc, no stdio, no
/// sanitizer). Sets `error` and exits 127 when a step or the exec fails.
__attribute__((no_sanitize("thread"), noreturn))
static void spawn_child(void *argument) {
    struct spawn_request *request = argument;
    long result = 0;
    struct kernel_sigaction defaults = { .handler = SIG_DFL, .flags = 0, .restorer = 0, .mask = 0 };
    for (int sig = 1; sig <= 64; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, sig, &defaults, NULL, sizeof(uint64_t));
    }
    if (request->new_group && syscall(SYS_setpgid, 0, 0) != 0) goto fail;
    for (int i = 0; i < request->count; i++) {
        const CGlibcShims_spawn_step *step = &request->steps[i];
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
            // close_range (Linux 5.9); one by one up to the usual limit before it.
            if (syscall(SYS_close_range, step->fd, ~0U, 0) != 0) {
                for (int fd = step->fd; fd < 65536; fd++) syscall(SYS_close, fd);
            }
            break;
        case CGlibcShims_STEP_CHDIR:
            if (syscall(SYS_chdir, step->path) != 0) goto fail;
            break;
        }
    }
    uint64_t none = 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, request->new_group ? &none : &request->parent_mask, NULL, sizeof(uint64_t));
    syscall(SYS_execve, request->path, request->argv, request->envp);
fail:
    request->error = errno ? errno : ECHILD;
    syscall(SYS_exit_group, 127);
    __builtin_unreachable();
}

#if defined(__x86_64__)
/// clone3(2), the child calling `child(argument)` on the stack `args`
/// gives it: it cannot return into the caller's frame, which is the
/// parent's. The kernel keeps r12 and r13 across the system call.
__attribute__((no_sanitize("thread")))
static long clone3_calling(struct clone_args *args, void (*child)(void *), void *argument) {
    long result;
    register void (*function)(void *) __asm__("r12") = child;
    register void *parameter __asm__("r13") = argument;
    __asm__ volatile(
        "syscall\n\t"
        "test %%rax, %%rax\n\t"
        "jnz 1f\n\t"
        "xor %%ebp, %%ebp\n\t"
        "mov %%r13, %%rdi\n\t"
        "call *%%r12\n\t"
        "ud2\n"
        "1:"
        : "=a"(result)
        : "a"((long)SYS_clone3), "D"(args), "S"(sizeof *args), "r"(function), "r"(parameter)
        : "rcx", "r11", "memory");
    return result;
}
#endif

int CGlibcShims_spawn_into_cgroup(int *pid, int cgroup, const char *path, const CGlibcShims_spawn_step *steps, int count,
                                  int new_group, char *const argv[], char *const envp[]) {
#if defined(__x86_64__)
    enum { stack_size = 64 * 1024 };
    void *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    struct spawn_request request = {
        .path = path, .steps = steps, .count = count, .new_group = new_group, .argv = argv, .envp = envp, .error = 0,
    };
    // No handler of rwatch's may run in the child before it resets them.
    uint64_t all = ~(uint64_t)0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &request.parent_mask, sizeof(uint64_t));
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_VM | CLONE_VFORK | CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.stack = (uint64_t)(uintptr_t)stack;
    args.stack_size = stack_size;
    args.cgroup = (uint64_t)cgroup;
    long child = clone3_calling(&args, spawn_child, &request);
    int clone_error = child < 0 ? (int)-child : 0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &request.parent_mask, NULL, sizeof(uint64_t));
    munmap(stack, stack_size);
    if (child < 0) {
        errno = clone_error;
        return -1;
    }
    // Here the child has exec'd, or failed and said why.
    if (request.error != 0) {
        int status;
        while (waitpid((pid_t)child, &status, 0) < 0 && errno == EINTR) {}
        return request.error;
    }
    *pid = (pid_t)child;
    return 0;
#else
    (void)pid; (void)cgroup; (void)path; (void)steps; (void)count; (void)new_group; (void)argv; (void)envp;
    errno = ENOSYS;
    return -1;
#endif
}
