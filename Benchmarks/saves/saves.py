#!/usr/bin/env python3
"""Saves through a temporary file, counted (issue 26): for each pattern a
tool or library saves with (the same thirteen as Tests/TestSupport/
TemporaryFileSave.swift), 200 saves of one file under `rwatch -d 0` and
under the default debounce, each save made once the run of the one before
has started. Counts the runs, the runs that carry the real path, and the
runs that carry any other path (the temporary file, a probe, a backup):
one run per save, with only the real path, is the answer wanted.

    make release      # or: swift build -c release --product rwatch
    python3 Benchmarks/saves/saves.py [--rwatch PATH] [--saves 200] [--default-ignore]
        [--backend inotify|poll|service] [PATTERN ...]

`--backend poll` watches with `--poll=50ms`; `--backend service` starts
`rwatch serve` on a socket of its own and hands it to each run through
WATCHMAN_SOCK, so that the changes come through the service.

By default rwatch runs with --no-default-ignore, so that no name helps it
(4913, sedXXXXXX, ___jb_tmp___, .vsctmp and .goutputstream-* are default
ignores otherwise). Each run of the command appends its RWATCH_PATHS as one
line to a file outside the watched directory.
"""
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def argument(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default


RWATCH = argument("--rwatch", os.path.join(ROOT, ".build", "release", "rwatch"))
SAVES = int(argument("--saves", "200"))
DEFAULT_IGNORE = "--default-ignore" in sys.argv
BACKEND = argument("--backend", "inotify")
SERVICE_SOCKET = None


def write(path, text, flags, mode=0o644, sync=False):
    fd = os.open(path, flags | os.O_WRONLY | os.O_CLOEXEC, mode)
    os.write(fd, text.encode())
    if sync:
        os.fsync(fd)
    os.close(fd)


def replace(path, temporary, text, mode=0o644):
    """A new file written (fsync'd) and renamed over `path`."""
    write(temporary, text, os.O_CREAT | os.O_EXCL, mode, sync=True)
    if mode != 0o644:
        os.chmod(temporary, 0o644)
    os.rename(temporary, path)


def directory_and_name(path):
    return os.path.dirname(path), os.path.basename(path)


def renamed_over(temporary_name):
    def save(path, text):
        directory, name = directory_and_name(path)
        replace(path, os.path.join(directory, temporary_name(name)), text)
    return save


def sed_in_place(path, text):
    replace(path, os.path.join(os.path.dirname(path), "sedQ3xT9k"), text, mode=0o600)


def vim_probe(path, text):
    probe = os.path.join(os.path.dirname(path), "4913")
    write(probe, "", os.O_CREAT | os.O_EXCL)
    os.unlink(probe)
    write(path, text, os.O_TRUNC)


def gofmt_backup(path, text):
    backup = path + ".38211"
    with open(path) as old:
        write(backup, old.read(), os.O_CREAT | os.O_EXCL)
    write(path, text, os.O_TRUNC)
    os.unlink(backup)


def emacs_lock(path, text):
    directory, name = directory_and_name(path)
    lock = os.path.join(directory, ".#" + name)
    os.symlink("user@host.4242:1700000000", lock)
    write(path, text, os.O_TRUNC)
    os.unlink(lock)


def symlink_swap(path, text):
    directory, name = directory_and_name(path)
    temporary = os.path.join(directory, "." + name + ".link-tmp")
    os.symlink(text.strip(), temporary)
    os.rename(temporary, path)


PATTERNS = {
    "numberedTmp": renamed_over(lambda name: name + ".tmp.123"),
    "swapTilde": renamed_over(lambda name: "." + name + ".swp~tmp"),
    "mkstempSuffix": renamed_over(lambda name: name + ".K3v9Qa"),
    "pythonTempfile": renamed_over(lambda name: "tmpx8fz_2ka"),
    "dotTmp": renamed_over(lambda name: ".tmpAb12Cd"),
    "sedInPlace": sed_in_place,
    "jetBrainsTemporary": renamed_over(lambda name: name + "___jb_tmp___"),
    "vscodeAtomic": renamed_over(lambda name: name + ".vsctmp"),
    "gioOutputStream": renamed_over(lambda name: ".goutputstream-W1ZQ2B"),
    "vimProbe": vim_probe,
    "gofmtBackup": gofmt_backup,
    "emacsLock": emacs_lock,
    "symlinkSwap": symlink_swap,
}


def runs(path):
    try:
        with open(path) as handle:
            return [[path for path in line.rstrip("\n").split("|") if path] for line in handle if line.endswith("\n")]
    except FileNotFoundError:
        return []


def wait_for(predicate, timeout=30.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.001)
    return predicate()


def measure(pattern, debounce):
    """(runs, runs with the real path, runs with another path, seconds) for SAVES saves."""
    scratch = tempfile.mkdtemp(prefix="rwatch-saves-")
    watched = os.path.join(scratch, "watched")
    os.mkdir(watched)
    file = os.path.join(watched, "app.c")
    write(file, "int x;\n", os.O_CREAT | os.O_TRUNC)
    runs_file = os.path.join(scratch, "runs")
    command = [RWATCH, "-p", "-q"] + ([] if DEFAULT_IGNORE else ["--no-default-ignore"])
    command += ["--poll=50ms"] if BACKEND == "poll" else []
    command += (["-d", debounce] if debounce != "default" else []) + ["-w", watched, "--", "sh", "-c",
                f"printf '%s' \"$RWATCH_PATHS\" | tr '\\n' '|' >> {runs_file}; echo >> {runs_file}"]
    environment = dict(os.environ)
    environment.pop("WATCHMAN_SOCK", None)
    if SERVICE_SOCKET:
        environment["WATCHMAN_SOCK"] = SERVICE_SOCKET
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=scratch,
                               env=environment)
    try:
        ready = os.path.join(watched, "zz-ready")
        attempt = 0
        while not any(ready in run for run in runs(runs_file)):
            attempt += 1
            write(ready, str(attempt), os.O_CREAT | os.O_TRUNC)
            wait_for(lambda: any(ready in run for run in runs(runs_file)), timeout=0.2)
        before = len(runs(runs_file))
        started = time.monotonic()
        for save in range(SAVES):
            PATTERNS[pattern](file, f"int x = {save};\n")
            if not wait_for(lambda: sum(file in run for run in runs(runs_file)[before:]) > save):
                print(f"  {pattern} -d {debounce}: save {save} gave no run", file=sys.stderr)
                break
        elapsed = time.monotonic() - started
        # A last save of another file: once its run came, every earlier run has.
        final = os.path.join(watched, "zz-final")
        write(final, "end", os.O_CREAT | os.O_TRUNC)
        wait_for(lambda: any(final in run for run in runs(runs_file)))
        after = [run for run in runs(runs_file)[before:] if final not in run]
        with_file = sum(file in run for run in after)
        strays = sum(any(path != file for path in run) for run in after)
        return len(after), with_file, strays, elapsed
    finally:
        process.terminate()
        process.wait()
        subprocess.run(["rm", "-rf", scratch])


def start_service():
    """An `rwatch serve` of its own (backend service): its socket, and the process."""
    global SERVICE_SOCKET
    state = tempfile.mkdtemp(prefix="rwatch-saves-service-")
    SERVICE_SOCKET = os.path.join(state, "sock")
    log = os.path.join(state, "log")
    with open(log, "w") as errors:
        service = subprocess.Popen([RWATCH, "serve", "--sockname", SERVICE_SOCKET], stdin=subprocess.DEVNULL,
                                   stdout=subprocess.DEVNULL, stderr=errors, cwd=state)
    if not wait_for(lambda: os.path.exists(SERVICE_SOCKET) or service.poll() is not None):
        sys.exit("saves.py: rwatch serve did not start")
    if service.poll() is not None:
        sys.exit("saves.py: rwatch serve ended: " + open(log).read().strip())
    return service, state


def main():
    service = start_service() if BACKEND == "service" else None
    try:
        table()
    finally:
        if service:
            service[0].terminate()
            service[0].wait()
            subprocess.run(["rm", "-rf", service[1]])


def table():
    chosen = [name for name in sys.argv[1:] if name in PATTERNS] or list(PATTERNS)
    mode = "default ignores" if DEFAULT_IGNORE else "--no-default-ignore"
    print(f"{SAVES} saves per pattern, {mode}, backend {BACKEND}, rwatch {RWATCH}")
    print("| pattern | -d 0: runs / with the real path / with another path | default debounce: runs / with the real path / with another path |")
    print("|---|---|---|")
    for pattern in chosen:
        cells = []
        for debounce in ["0", "default"]:
            total, with_file, strays, elapsed = measure(pattern, debounce)
            cells.append(f"{total} / {with_file} / {strays} ({elapsed:.1f} s)")
        print(f"| {pattern} | {cells[0]} | {cells[1]} |", flush=True)
    print("load", os.getloadavg())


main()
