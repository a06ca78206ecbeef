// Watches one directory with FileWatcher and prints every event as
// "kind path" on stdout, one write per event (as `inotifywait -m` does).
// Prints "ARMED" on stderr once the watch is in place. With `--poll MS`
// the directory is polled every MS milliseconds (Benchmarks/polling).
import Glibc
import WatchSources

/// Writes all of `text` to `fd`.
func emit(_ text: String, to fd: Int32) {
    emit(Array(text.utf8), to: fd)
}

/// Writes all of `bytes` to `fd`.
func emit(_ bytes: [UInt8], to fd: Int32) {
    bytes.withUnsafeBytes { bytes in
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written <= 0 { exit(1) }
            offset += written
        }
    }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 || (arguments.count == 4 && arguments[2] == "--poll" && Int(arguments[3]) != nil) else {
    emit("usage: files-probe DIRECTORY [--poll MILLISECONDS]\n", to: 2)
    exit(2)
}
var options = WatchOptions()
if arguments.count == 4 { options.backend = .poll(interval: .milliseconds(Int(arguments[3])!)) }

let subscription = FileWatcher.watch([arguments[1]], options: options).subscribe(
    onNext: { event in
        // The path's bytes as they are, as inotifywait prints them.
        let path = event.path.withPlatformString { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
        emit(Array((event.kind.rawValue + " ").utf8) + path + [0x0A], to: 1)
    },
    onError: { error in
        emit("files-probe: \(error)\n", to: 2)
        exit(1)
    }
)
emit("ARMED\n", to: 2)
_ = subscription
while true { pause() }
