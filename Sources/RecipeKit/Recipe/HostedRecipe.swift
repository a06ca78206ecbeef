import Glibc

/// What a recipe binary does when a hosting rwatch started it (`rwatch`
/// with a project recipe, `rwatch run`: `RecipeHost`). The host sets
/// `RWATCH_HOST=PID:FD`: its own pid, and the descriptor that holds the
/// real standard error, because descriptor 2 is the host's pipe for crash
/// reports (the Swift runtime writes those to 2, always).
package enum HostedRecipe {
    package static let variable = "RWATCH_HOST"

    /// Takes the variable out of the environment (commands must not see
    /// it), writes error output to the real standard error from now on,
    /// and has the kernel send SIGTERM when the host dies, so that the
    /// recipe stops its process groups even if rwatch is killed with
    /// SIGKILL. Does nothing when the binary runs on its own.
    static func join() {
        guard let raw = getenv(variable) else { return }
        let value = String(cString: raw)
        unsetenv(variable)
        let parts = value.split(separator: ":")
        guard parts.count == 2, let host = pid_t(parts[0]), let fd = Int32(parts[1]) else { return }
        if fcntl(fd, F_GETFD) >= 0 {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            StandardError.use(fd)
        }
        ProcessControl.signalWhenParentDies(SIGTERM)
        // The host died before the request took effect.
        if getppid() != host { exit(128 + SIGTERM) }
    }
}
