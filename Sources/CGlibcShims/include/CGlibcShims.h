// glibc functions that Swift's Glibc module does not declare (they need
// _GNU_SOURCE, which the Glibc module is built without). shims.c and
// spawn.c are compiled with _GNU_SOURCE and forward to them; WatchSources
// calls these.
#ifndef C_GLIBC_SHIMS_H
#define C_GLIBC_SHIMS_H

#include <spawn.h>
#include <stddef.h>
#include <malloc.h>
#include <sys/xattr.h>  // setxattr(2), fsetxattr(2): Swift's Glibc module leaves them out

/// pipe2(2): a pipe whose ends get `flags` (O_CLOEXEC, O_NONBLOCK) atomically.
int CGlibcShims_pipe2(int fds[_Nonnull 2], int flags);

/// prctl(PR_SET_NAME) (variadic, so out of Swift's reach): names the
/// calling thread (at most 15 bytes), as `top -H` shows it.
int CGlibcShims_set_thread_name(const char *_Nonnull name);

/// memmem(3): the first occurrence of `needle` in `haystack`, or NULL.
void *_Nullable CGlibcShims_memmem(const void *_Nonnull haystack, size_t haystackLength,
                                   const void *_Nonnull needle, size_t needleLength);

/// memrchr(3): the last byte `c` in the first `length` bytes of `bytes`, or NULL.
void *_Nullable CGlibcShims_memrchr(const void *_Nonnull bytes, int c, size_t length);

/// mallopt(3) with M_MMAP_THRESHOLD and M_ARENA_MAX (malloc.h is not in
/// Swift's Glibc module): `rwatch serve` sets both for its large tables.
int CGlibcShims_tune_malloc(int mmapThreshold, int arenaMax);

/// The spawn fence: a process-wide lock that every posix_spawn of the
/// process holds until the child has exec'd (posix_spawn returns only
/// then). A child holds a copy of every open descriptor until its exec,
/// so a file written and closed meanwhile is not closed for the kernel
/// (no IN_CLOSE_WRITE) until the child's exec drops it. Holding the fence
/// around open...close keeps a file out of every child.
void CGlibcShims_spawn_fence_enter(void);
void CGlibcShims_spawn_fence_leave(void);

/// prctl(PR_SET_PDEATHSIG, sig): the kernel sends `sig` to this process
/// when the thread that started it ends. 0, or -1 with errno.
int CGlibcShims_set_parent_death_signal(int sig);

/// prctl(PR_SET_CHILD_SUBREAPER, 1): orphaned descendants become this
/// process's children instead of init's. 0, or -1 with errno.
int CGlibcShims_become_child_subreaper(void);

/// pidfd_open(2) (Linux 5.3): a descriptor that refers to process `pid`
/// for as long as it is open, whatever number the kernel gives later
/// processes. -1 with errno (ENOSYS on older kernels).
int CGlibcShims_pidfd_open(int pid);

/// pidfd_send_signal(2) (Linux 5.1): `sig` to the process `fd` refers to,
/// never to a later holder of its pid. 0, or -1 with errno.
int CGlibcShims_pidfd_send_signal(int fd, int sig);

/// One step of a child's set-up between its birth and its exec, in the
/// order given: what posix_spawn's file actions do.
enum {
    /// open(path, flags) as descriptor `fd`.
    CGlibcShims_STEP_OPEN = 0,
    /// dup2(source, fd); for source == fd, clears its close-on-exec.
    CGlibcShims_STEP_DUP2 = 1,
    /// Closes every descriptor from `fd` up.
    CGlibcShims_STEP_CLOSEFROM = 2,
    /// chdir(path).
    CGlibcShims_STEP_CHDIR = 3,
};

typedef struct {
    int kind;
    int fd;
    int source;
    int flags;
    const char *_Nullable path;
} CGlibcShims_spawn_step;

/// Where the child stands, besides: every signal at its default in all three.
enum {
    /// In the caller's process group, with the caller's signal mask.
    CGlibcShims_GROUP_SAME = 0,
    /// Leading a new process group, no signal blocked.
    CGlibcShims_GROUP_NEW = 1,
    /// Leading a new session (setsid: no terminal) and group, no signal blocked.
    CGlibcShims_GROUP_SESSION = 2,
};

/// One spawn, described once (`SpawnSetUp` in WatchSources builds it);
/// each way of spawning lowers it: `CGlibcShims_spawn_setup_posix` and
/// `CGlibcShims_spawn_into_cgroup`.
typedef struct {
    const CGlibcShims_spawn_step *_Nullable steps;
    int count;
    int grouping;
} CGlibcShims_spawn_setup;

/// 1 where this glibc's posix_spawn can change the child's directory
/// (posix_spawn_file_actions_addchdir_np, 2.29+), else 0.
int CGlibcShims_has_addchdir(void);

/// posix_spawn's form of `setup`: its steps as file actions, its grouping
/// and signals as attributes, added to `actions` and `attributes` (both
/// initialized by the caller). 0, or an errno (ENOMEM; ENOSYS for a
/// directory this glibc cannot set). Before glibc 2.34 a closefrom step is
/// left out: posix_spawn has no such action there.
int CGlibcShims_spawn_setup_posix(const CGlibcShims_spawn_setup *_Nonnull setup,
                                  posix_spawn_file_actions_t *_Nonnull actions,
                                  posix_spawnattr_t *_Nonnull attributes);

/// Starts `path` (no PATH search) as `setup` says, in a new process born
/// in the cgroup v2 directory open as `cgroup` (clone3 with
/// CLONE_INTO_CGROUP, Linux 5.7). Like posix_spawn, the child shares the
/// caller's memory on a stack of its own until its exec (CLONE_VM |
/// CLONE_VFORK) and takes the steps with system calls only. Returns when
/// the child has exec'd: 0 and its pid; a positive errno when a step or
/// the exec failed (the child is reaped); -1 and errno when clone3 itself
/// failed (ENOSYS on an older kernel, in a sandbox that refuses it, or on
/// a processor other than x86-64, where this is not written), and nothing
/// was started.
int CGlibcShims_spawn_into_cgroup(int *_Nonnull pid, int cgroup, const char *_Nonnull path,
                                  const CGlibcShims_spawn_setup *_Nonnull setup,
                                  char *_Nullable const *_Nonnull argv, char *_Nullable const *_Nonnull envp);

#endif
