/* How long one spawn of /bin/true takes, six ways, interleaved:
 *
 *   vm       rwatch's clone3 spawn (CGlibcShims_spawn_into_cgroup): the
 *            child shares the parent's memory (CLONE_VM | CLONE_VFORK) on
 *            a stack of its own, entered through a few lines of assembly
 *   copy     the simpler clone3 spawn: CLONE_VFORK without CLONE_VM, so the
 *            child runs on a copy-on-write copy of the parent (page tables
 *            copied), needs no stack of its own and no assembly: a plain
 *            syscall(SYS_clone3) that returns 0 in the child
 *   mkdir    vm, into a cgroup made for this spawn (mkdir + open first),
 *            as rwatch makes one per run
 *   fresh    vm, into a new cgroup made before the clock starts (open
 *            only): what a cgroup made ahead of the run costs
 *   own      vm, into the benchmark's own cgroup (CGROUP_DIR's parent):
 *            what clone3 costs where the child stays in its parent's cgroup
 *   posix    glibc's posix_spawn, no cgroup (where rwatch makes none)
 *
 * Each with the steps of a run's child: a new process group, stdin from
 * /dev/null, every descriptor from 3 up closed. The time is from the call
 * to its return, when the child has exec'd (each way waits for that);
 * children are reaped after the clock stops. The ways take turns in each
 * round, the order rotating from one round to the next, so that a busy
 * moment of a shared machine falls on all of them alike; medians.
 *
 * The spawn code is rwatch's own, included: only `copy` is written here.
 *
 *   clang -O2 -I Sources/CGlibcShims/include -o clone3 Benchmarks/spawn/clone3.c
 *   ./clone3 CGROUP_DIR [ROUNDS] [HEAP_MB] [GAP_MS]     (Benchmarks/spawn/run.sh)
 *
 * HEAP_MB: anonymous memory the parent has touched first, whose page
 * tables `copy` copies on every spawn (rwatch at -d 0: about 1.4 MB
 * RssAnon, 14 MB RssFile; file pages never written are not copied).
 * GAP_MS: an idle pause before each spawn, as between the runs of a watch
 * (spawns back to back find the caches warm; 0 by default).
 */
#include "../../Sources/CGlibcShims/spawn.c"

#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>

extern char **environ;

/// The simpler spawn: the child's memory is a copy, so the request (and a
/// failure's errno) sits on a page mapped shared, which both see.
static int spawn_copy(int *pid, int cgroup, const char *path, const CGlibcShims_spawn_setup *setup, char *const argv[],
                      char *const envp[]) {
    struct spawn_request *request = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (request == MAP_FAILED) return -1;
    request->path = path;
    request->setup = setup;
    request->argv = argv;
    request->envp = envp;
    request->error = 0;
    uint64_t all = ~(uint64_t)0;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &all, &request->parent_mask, sizeof(uint64_t));
    struct clone_args args;
    memset(&args, 0, sizeof args);
    args.flags = CLONE_VFORK | CLONE_INTO_CGROUP;
    args.exit_signal = SIGCHLD;
    args.cgroup = (uint64_t)cgroup;
    long child = syscall(SYS_clone3, &args, sizeof args);
    if (child == 0) spawn_child(request);
    int clone_error = errno;
    syscall(SYS_rt_sigprocmask, SIG_SETMASK, &request->parent_mask, NULL, sizeof(uint64_t));
    int error = request->error;
    munmap(request, 4096);
    if (child < 0) {
        errno = clone_error;
        return -1;
    }
    if (error != 0) {
        int status;
        while (waitpid((pid_t)child, &status, 0) < 0 && errno == EINTR) {}
        return error;
    }
    *pid = (pid_t)child;
    return 0;
}

enum { WAY_VM, WAY_COPY, WAY_MKDIR, WAY_FRESH, WAY_OWN, WAY_POSIX, WAYS };
static const char *names[WAYS] = { "vm (assembly, CLONE_VM)", "copy (no CLONE_VM)", "vm + mkdir of its cgroup",
                                   "vm, its new cgroup made beforehand", "vm, into its parent's own cgroup",
                                   "posix_spawn, no cgroup" };

static const char *base;
static int base_fd, own_fd;
static char *const argv_true[] = { "true", NULL };
static const CGlibcShims_spawn_step steps[] = {
    { .kind = CGlibcShims_STEP_OPEN, .fd = 0, .source = -1, .flags = O_RDONLY, .path = "/dev/null" },
    { .kind = CGlibcShims_STEP_CLOSEFROM, .fd = 3, .source = -1, .flags = 0, .path = NULL },
};
static const CGlibcShims_spawn_setup setup = { .steps = steps, .count = 2, .grouping = CGlibcShims_GROUP_NEW };

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/// One spawn `way`; its time in µs. The child is reaped (and a cgroup
/// made for it removed) after the clock stops.
static double spawn_once(int way, int round) {
    int pid = -1, result;
    char directory[512];
    if (way == WAY_MKDIR || way == WAY_FRESH) snprintf(directory, sizeof directory, "%s/run-%d", base, round);
    if (way == WAY_FRESH && mkdir(directory, 0755) != 0) {
        perror(directory);
        exit(1);
    }
    double start = now_us();
    if (way == WAY_VM) {
        result = CGlibcShims_spawn_into_cgroup(&pid, base_fd, "/bin/true", &setup, argv_true, environ);
    } else if (way == WAY_OWN) {
        result = CGlibcShims_spawn_into_cgroup(&pid, own_fd, "/bin/true", &setup, argv_true, environ);
    } else if (way == WAY_COPY) {
        result = spawn_copy(&pid, base_fd, "/bin/true", &setup, argv_true, environ);
    } else if (way == WAY_MKDIR || way == WAY_FRESH) {
        int fd = way == WAY_FRESH || mkdir(directory, 0755) == 0 ? open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
        result = fd < 0 ? -1 : CGlibcShims_spawn_into_cgroup(&pid, fd, "/bin/true", &setup, argv_true, environ);
        if (fd >= 0) close(fd);
    } else {
        posix_spawn_file_actions_t actions;
        posix_spawnattr_t attributes;
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attributes);
        result = CGlibcShims_spawn_setup_posix(&setup, &actions, &attributes);
        if (result == 0) result = posix_spawn(&pid, "/bin/true", &actions, &attributes, argv_true, environ);
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attributes);
    }
    double elapsed = now_us() - start;
    if (result != 0) {
        fprintf(stderr, "%s: spawn failed: %d (%s)\n", names[way], result, strerror(result < 0 ? errno : result));
        exit(1);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    if (way == WAY_MKDIR || way == WAY_FRESH) rmdir(directory);
    return elapsed;
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double percentile(double *sorted, int count, int p) {
    return sorted[(count - 1) * p / 100];
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s CGROUP_DIR [ROUNDS] [HEAP_MB]\n", argv[0]);
        return 2;
    }
    base = argv[1];
    int rounds = argc > 2 ? atoi(argv[2]) : 2000;
    long heap_mb = argc > 3 ? atol(argv[3]) : 2;
    long gap_ms = argc > 4 ? atol(argv[4]) : 0;
    base_fd = open(base, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (base_fd < 0) {
        perror(base);
        return 1;
    }
    char own[512];
    snprintf(own, sizeof own, "%s/..", base);
    own_fd = open(own, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (own_fd < 0) {
        perror(own);
        return 1;
    }
    size_t heap_size = (size_t)heap_mb << 20;
    char *heap = heap_size ? malloc(heap_size) : NULL;
    if (heap) memset(heap, 1, heap_size);
    double *samples[WAYS];
    for (int way = 0; way < WAYS; way++) samples[way] = calloc((size_t)rounds, sizeof(double));
    for (int way = 0; way < WAYS; way++) spawn_once(way, -1 - way);  // warm up
    for (int round = 0; round < rounds; round++) {
        for (int turn = 0; turn < WAYS; turn++) {
            int way = (turn + round) % WAYS;
            if (gap_ms > 0) usleep((useconds_t)gap_ms * 1000);
            samples[way][round] = spawn_once(way, round);
        }
    }
    printf("%d rounds, ways interleaved; parent heap touched: %ld MB; pause before each spawn: %ld ms\n\n", rounds, heap_mb,
           gap_ms);
    printf("| way | p50 µs | p90 µs | p50 / vm |\n|---|---:|---:|---:|\n");
    double vm_median = 0;
    for (int way = 0; way < WAYS; way++) {
        qsort(samples[way], (size_t)rounds, sizeof(double), compare);
        double median = percentile(samples[way], rounds, 50);
        if (way == WAY_VM) vm_median = median;
        printf("| %s | %.0f | %.0f | %.2f |\n", names[way], median, percentile(samples[way], rounds, 90), median / vm_median);
    }
    free(heap);
    return 0;
}
