// The exec shim: every program that links WatchSources (rwatch, a recipe
// binary, the test runner) can stand in for a command for the instant
// between its spawn and its exec, to do what posix_spawn cannot: set
// LISTEN_PID to the command's own pid (systemd's sd_listen_fds
// convention, checked by every library that reads LISTEN_FDS), and take
// the terminal for a command that is handed it after posix_spawn has
// returned. posix_spawn's own hand-over (addtcsetpgrp) runs in the vfork
// child while the spawning thread is suspended: a Ctrl-Z typed between it
// and the exec stops that child, the spawn never returns, and nothing
// in rwatch watches the child yet. Here the same stop is the stop of a
// child rwatch already watches: it stops rwatch with it, as a shell would.
//
// ProcessLauncher spawns /proc/self/exe with the command's argv and
//     RWATCH_EXEC_SHIM=<parent pid>:<flags>:<program path>
// in its environment. This constructor runs before anything else of the
// program (no Swift, no thread), sees the variable, checks that its parent
// is the rwatch that set it (a stray copy in an environment does nothing),
// and replaces itself with the program: same pid, same descriptors,
// signals and process group, the variable removed; with flag L,
// LISTEN_PID set to that pid; with flag T, its group made the terminal's
// foreground group (while rwatch's group holds it). Nothing else of the
// program ever runs.
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define SHIM_VARIABLE "RWATCH_EXEC_SHIM="
#define LISTEN_PID_VARIABLE "LISTEN_PID="

/// The command could not be exec'd: say so as a shell would, and exit
/// with a shell's status (127 not found, 126 not executable).
static void shim_failed(const char *program) {
    int code = errno;
    dprintf(2, "rwatch: cannot run %s: %s\n", program, strerror(code));
    _exit(code == ENOENT ? 127 : 126);
}

/// Makes this process's group the foreground group of the terminal on
/// standard input, if the spawning rwatch's group still holds it (a
/// Ctrl-Z that stopped rwatch meanwhile gave it to the shell: it stays
/// there). SIGTTOU, which a background group gets for this, is blocked
/// for the call.
static void shim_take_terminal(void) {
    sigset_t block, saved;
    sigemptyset(&block);
    sigaddset(&block, SIGTTOU);
    sigprocmask(SIG_BLOCK, &block, &saved);
    pid_t holder = tcgetpgrp(STDIN_FILENO);
    if (holder > 0 && holder == getpgid(getppid())) tcsetpgrp(STDIN_FILENO, getpgrp());
    sigprocmask(SIG_SETMASK, &saved, NULL);
}

/// Parses `<pid>:<flags>:<path>`; returns the path, or NULL when the
/// value is not ours (malformed, or set by another parent).
static const char *shim_program(const char *value, int *listen_pid, int *take_terminal) {
    char *end = NULL;
    long parent = strtol(value, &end, 10);
    if (end == value || *end != ':' || parent != (long)getppid()) return NULL;
    const char *flags = end + 1;
    const char *colon = strchr(flags, ':');
    if (colon == NULL || colon[1] == '\0') return NULL;
    *listen_pid = memchr(flags, 'L', (size_t)(colon - flags)) != NULL;
    *take_terminal = memchr(flags, 'T', (size_t)(colon - flags)) != NULL;
    return colon + 1;
}

// Priority 101, the first a program may use: before the Swift runtime's own
// initializers, which the shim has no use for.
__attribute__((constructor(101)))
static void rwatch_exec_shim(int argc, char **argv, char **envp) {
    (void)argc;
    if (envp == NULL || argv == NULL || argv[0] == NULL) return;
    const char *value = NULL;
    size_t count = 0;
    for (; envp[count] != NULL; count++) {
        if (strncmp(envp[count], SHIM_VARIABLE, sizeof(SHIM_VARIABLE) - 1) == 0) value = envp[count] + sizeof(SHIM_VARIABLE) - 1;
    }
    if (value == NULL) return;
    int listen_pid = 0, take_terminal = 0;
    const char *program = shim_program(value, &listen_pid, &take_terminal);
    if (program == NULL) return;
    if (take_terminal) shim_take_terminal();
    char pid_entry[sizeof(LISTEN_PID_VARIABLE) + 24];
    snprintf(pid_entry, sizeof(pid_entry), LISTEN_PID_VARIABLE "%ld", (long)getpid());
    char **environment = calloc(count + 2, sizeof(char *));
    if (environment == NULL) shim_failed(argv[0]);
    size_t kept = 0;
    for (size_t index = 0; index < count; index++) {
        const char *entry = envp[index];
        if (strncmp(entry, SHIM_VARIABLE, sizeof(SHIM_VARIABLE) - 1) == 0) continue;
        if (listen_pid && strncmp(entry, LISTEN_PID_VARIABLE, sizeof(LISTEN_PID_VARIABLE) - 1) == 0) continue;
        environment[kept++] = envp[index];
    }
    if (listen_pid) environment[kept++] = pid_entry;
    environment[kept] = NULL;
    execve(program, argv, environment);
    shim_failed(argv[0]);
}
