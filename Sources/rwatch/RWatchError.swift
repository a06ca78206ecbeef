import WatchSources

/// A usage or recipe error: printed as one line, exits 2. The library's
/// parsers of user input (durations, signal names, env files) throw the
/// same type, so a bad `--stop-timeout` and a bad recipe read alike.
typealias RWatchError = InputError
