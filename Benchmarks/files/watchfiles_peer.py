"""watchfiles peer for bench.py: prints "KIND path" per change, "ARMED" on stderr once watching."""
import sys

import watchfiles

armed = False
for changes in watchfiles.watch(sys.argv[1], debounce=1, step=1, rust_timeout=50,
                                yield_on_timeout=True, raise_interrupt=False, ignore_permission_denied=True):
    if not armed:
        armed = True
        sys.stderr.write("ARMED\n")
        sys.stderr.flush()
    if changes:
        sys.stdout.write("".join(f"{change.name} {path}\n" for change, path in changes))
        sys.stdout.flush()
