// One description of a spawn (CGlibcShims_spawn_setup: the child's steps
// between its birth and its exec, and its grouping), and the two ways a
// child is made from it: posix_spawn's file actions and attributes
// (CGlibcShims_spawn_setup_posix), and a clone3 child born in a cgroup
// that takes the same steps itself (CGlibcShims_spawn_into_cgroup).
// Compiled with _GNU_SOURCE for posix_spawn's _np actions and SETSID.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <spawn.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
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

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

int CGlibcShims_has_addchdir(void) {
    return HAS_ADDCHDIR;
}

// MARK: posix_spawn's form

/// One step as a file action. Before glibc 2.34 there is no closefrom
/// action: the step is left out (descriptors rwatch opens are CLOEXEC).
static int add_file_action(posix_spawn_file_actions_t *actions, const CGlibcShims_spawn_step *step) {
    switch (step->kind) {
    case CGlibcShims_STEP_OPEN:
        return posix_spawn_file_actions_addopen(actions, step->fd, step->path, step->flags, 0666);
    case CGlibcShims_STEP_DUP2:
        return posix_spawn_file_actions_adddup2(actions, step->source, step->fd);
    case CGlibcShims_STEP_CLOSEFROM:
#if HAS_ADDCLOSEFROM
        return posix_spawn_file_actions_addclosefrom_np(actions, step->fd);
#else
        return 0;
#endif
    case CGlibcShims_STEP_CHDIR:
#if HAS_ADDCHDIR
        return posix_spawn_file_actions_addchdir_np(actions, step->path);
#else
        return ENOSYS;
#endif
    default:
        return EINVAL;
    }
}

int CGlibcShims_spawn_setup_posix(const CGlibcShims_spawn_setup *setup, posix_spawn_file_actions_t *actions,
                                  posix_spawnattr_t *attributes) {
    for (int i = 0; i < setup->count; i++) {
        int result = add_file_action(actions, &setup->steps[i]);
        if (result != 0) return result;
    }
    // Every signal to its default, glibc's own 32 and 33 too (sigfillset
    // leaves them out, and posix_spawn would set them to SIG_IGN, which
    // survives exec; sigaddset refuses them). Bit n-1 is signal n.
    sigset_t every;
    sigfillset(&every);
    every.__val[0] |= (1UL << 31) | (1UL << 32);
    posix_spawnattr_setsigdefault(attributes, &every);
    short flags = POSIX_SPAWN_SETSIGDEF;
    if (setup->grouping != CGlibcShims_GROUP_SAME) {
        sigset_t none;
        sigemptyset(&none);
        posix_spawnattr_setsigmask(attributes, &none);
        posix_spawnattr_setpgroup(attributes, 0);
        // setsid makes the child lead a new group too.
        flags |= (setup->grouping == CGlibcShims_GROUP_SESSION ? POSIX_SPAWN_SETSID : POSIX_SPAWN_SETPGROUP)
            | POSIX_SPAWN_SETSIGMASK;
    }
    return posix_spawnattr_setflags(attributes, flags);
}

// MARK: The clone3 form, straight into a cgroup

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
    const CGlibcShims_spawn_setup *setup;
    uint64_t parent_mask;
    char *const *argv;
    char *const *envp;
    volatile int error;
};

/// One step, with a system call or two; 0, or -1 with errno.
__attribute__((no_sanitize("thread")))
static int take_step(const CGlibcShims_spawn_step *step) {
    long result;
    switch (step->kind) {
    case CGlibcShims_STEP_OPEN:
        result = syscall(SYS_openat, AT_FDCWD, step->path, step->flags, 0666);
        if (result < 0) return -1;
        if (result == step->fd) return 0;
        if (syscall(SYS_dup3, (int)result, step->fd, 0) < 0) return -1;
        return (int)syscall(SYS_close, (int)result);
    case CGlibcShims_STEP_DUP2:
        // dup2 of a descriptor onto itself clears its close-on-exec, as posix_spawn's does.
        if (step->source == step->fd) return syscall(SYS_fcntl, step->fd, F_SETFD, 0) < 0 ? -1 : 0;
        return syscall(SYS_dup3, step->source, step->fd, 0) < 0 ? -1 : 0;
    case CGlibcShims_STEP_CLOSEFROM:
        // close_range (Linux 5.9); one by one up to the usual limit before it.
        if (syscall(SYS_close_range, step->fd, ~0U, 0) != 0) {
            for (int fd = step->fd; fd < 65536; fd++) syscall(SYS_close, fd);
        }
        return 0;
    case CGlibcShims_STEP_CHDIR:
        return (int)syscall(SYS_chdir, step->path);
    default:
        errno = EINVAL;
        return -1;
    }
}

/// What the child does, on a stack of its own, with system calls only
/// (the memory is the parent's: no lock, no malloc, no stdio, no
/// sanitizer). Sets `error` and exits 127 when a step or the exec fails.
__attribute__((no_sanitize("thread"), noreturn))
static void spawn_child(void *argument) {
    struct spawn_request *request = argument;
    const CGlibcShims_spawn_setup *setup = request->setup;
    struct kernel_sigaction defaults = { .handler = SIG_DFL, .flags = 0, .restorer = 0, .mask = 0 };
    for (int sig = 1; sig <= 64; sig++) {
        if (sig == SIGKILL || sig == SIGSTOP) continue;
        syscall(SYS_rt_sigaction, sig, &defaults, NULL, sizeof(uint64_t));
    }
    if (setup->grouping == CGlibcShims_GROUP_SESSION && syscall(SYS_setsid) < 0) goto fail;
    if (setup->grouping == CGlibcShims_GROUP_NEW && syscall(SYS_setpgid, 0, 0) != 0) goto fail;
    for (int i = 0; i < setup->count; i++) {
        if (take_step(&setup->steps[i]) != 0) goto fail;
    }
    uint64_t none = 0;
    const uint64_t *mask = setup->grouping == CGlibcShims_GROUP_SAME ? &request->parent_mask : &none;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, mask, NULL, sizeof(uint64_t));
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

int CGlibcShims_spawn_into_cgroup(int *pid, int cgroup, const char *path, const CGlibcShims_spawn_setup *setup,
                                  char *const argv[], char *const envp[]) {
#if defined(__x86_64__)
    enum { stack_size = 64 * 1024 };
    void *stack = mmap(NULL, stack_size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
    if (stack == MAP_FAILED) return -1;
    struct spawn_request request = { .path = path, .setup = setup, .argv = argv, .envp = envp, .error = 0 };
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
    (void)pid; (void)cgroup; (void)path; (void)setup; (void)argv; (void)envp;
    errno = ENOSYS;
    return -1;
#endif
}
