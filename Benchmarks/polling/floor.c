// The system calls a polling pass cannot do without, and nothing else: for
// the benchmark tree (TREE/dAA/sBB/fN.txt, 100 x 100 directories of 10
// files), open each directory and fstatat each name in it, as a poller
// that knows the names already does. No listing, no comparison, no
// allocation. Prints the CPU time (user + system) per pass: the lowest
// idle CPU any stat-based poller can reach at one pass per second.
// With `held` as a third argument, every directory is opened once before
// the passes (O_PATH) and each pass only stats, relative to those
// descriptors: no open or close at all, what a poller that kept every
// directory open would pay.
//   cc -O2 -o floor floor.c && ./floor /tmp/rwatch-bench-tree 30 [held]
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_utime.tv_usec / 1e6 + usage.ru_stime.tv_sec + usage.ru_stime.tv_usec / 1e6;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: floor TREE PASSES\n");
        return 2;
    }
    const char *tree = argv[1];
    int passes = atoi(argv[2]);
    char name[32];
    struct stat info;
    if (argc > 3 && argv[3][0] == 'h') {
        static int middles[100], leaves[100][100];
        int top = open(tree, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (top < 0) {
            perror(tree);
            return 1;
        }
        for (int a = 0; a < 100; a++) {
            snprintf(name, sizeof name, "d%02d", a);
            middles[a] = openat(top, name, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            for (int b = 0; b < 100; b++) {
                snprintf(name, sizeof name, "s%02d", b);
                leaves[a][b] = openat(middles[a], name, O_PATH | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
                if (leaves[a][b] < 0) {
                    perror(name);
                    return 1;
                }
            }
        }
        double start = cpu_seconds();
        for (int pass = 0; pass < passes; pass++) {
            fstatat(top, "", &info, AT_EMPTY_PATH);
            for (int a = 0; a < 100; a++) {
                fstatat(middles[a], "", &info, AT_EMPTY_PATH);
                for (int b = 0; b < 100; b++) {
                    fstatat(leaves[a][b], "", &info, AT_EMPTY_PATH);
                    for (int f = 0; f < 10; f++) {
                        snprintf(name, sizeof name, "f%d.txt", f);
                        fstatat(leaves[a][b], name, &info, AT_SYMLINK_NOFOLLOW);
                    }
                }
            }
        }
        printf("%.2f\n", (cpu_seconds() - start) * 1000 / passes);
        return 0;
    }
    double start = cpu_seconds();
    for (int pass = 0; pass < passes; pass++) {
        int top = open(tree, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (top < 0) {
            perror(tree);
            return 1;
        }
        for (int a = 0; a < 100; a++) {
            snprintf(name, sizeof name, "d%02d", a);
            fstatat(top, name, &info, AT_SYMLINK_NOFOLLOW);
            int middle = openat(top, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
            for (int b = 0; b < 100; b++) {
                snprintf(name, sizeof name, "s%02d", b);
                fstatat(middle, name, &info, AT_SYMLINK_NOFOLLOW);
                int leaf = openat(middle, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW);
                for (int f = 0; f < 10; f++) {
                    snprintf(name, sizeof name, "f%d.txt", f);
                    fstatat(leaf, name, &info, AT_SYMLINK_NOFOLLOW);
                }
                close(leaf);
            }
            close(middle);
        }
        close(top);
    }
    printf("%.2f\n", (cpu_seconds() - start) * 1000 / passes);
    return 0;
}
