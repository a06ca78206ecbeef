/// `watchman --help`: watchman's options that rwatch's watchman command
/// takes, in watchman's order.
enum WatchmanHelp {
    static let text = """
        USAGE: watchman [OPTIONS] COMMAND [ARGS...]
               rwatch watchman [OPTIONS] COMMAND [ARGS...]

        Sends [COMMAND, ARGS...] to the rwatch service (each ARG read as JSON when \
        it is valid JSON, else as a string) and prints the answer. Exits non-zero \
        when the answer has an error. Starts `rwatch serve` when nothing answers on \
        the socket, unless --no-spawn. See WATCHMAN COMMAND in rwatch(1).

        OPTIONS:
          -U, -u, --sockname, --unix-listener-path PATH
                                  The socket (else WATCHMAN_SOCK, else the service's default).
          -j, --json-command      Read the request from stdin (JSON, or BSER).
          -p, --persistent        Stay connected; print every PDU that comes.
          --pretty, --no-pretty   Indented or compact JSON (default: indented on a terminal).
          --output-encoding ENC   json, bser or bser-v2.
          --server-encoding ENC   json, bser or bser-v2.
          --no-spawn              Never start the service.
          --no-local              Accepted: nothing is answered without the service.
          -S, --no-site-spawner   Start the service here, not with spawn_watchman_service.
          -o, --logfile PATH      For a service started here (default SOCK.log).
          --statefile PATH        For a service started here (default SOCK.state).
          -n, --no-save-state     A service started here keeps no state file.
          --pidfile PATH          For a service started here (default SOCK.pid).
          --log-level LEVEL       For a service started here: 0, 1 or 2.
          -f, --foreground        Run the service itself, in the foreground.
          --test-state-dir DIR    The service's files in DIR/USER-state (watchman's tests).
          -v, --version           Print the version and exit.
          -h, --help              Print this help and exit.
        """
}
