import RecipeKit

// The test's steps: each happens at `at` on the virtual clock (now when
// nil), in the order the test wrote them for equal times.
extension RecipeTest {
    /// Writes `text` to `path` through one open (making it, and its
    /// directories, when new).
    public func write(_ path: String, _ text: String = "", at time: Duration? = nil) {
        at(time) { [files] in files.apply([.write(FilePath(path), Array(text.utf8))]) }
    }

    /// Saves `text` to `path` the way `editor` does (`EditorSave`).
    public func save(_ path: String, _ text: String = "", as editor: EditorSave = .inPlace, at time: Duration? = nil) {
        at(time) { [files] in
            let file = FilePath(path)
            files.apply(editor.changes(file, Array(text.utf8), exists: files.exists(file)))
        }
    }

    /// Makes the directory `path` (and those missing above it).
    public func makeDirectory(_ path: String, at time: Duration? = nil) {
        at(time) { [files] in files.apply([.makeDirectory(FilePath(path))]) }
    }

    /// Deletes the file or directory tree at `path`.
    public func remove(_ path: String, at time: Duration? = nil) {
        at(time) { [files] in files.apply([.remove(FilePath(path))]) }
    }

    /// Renames `path` to `target`.
    public func rename(_ path: String, to target: String, at time: Duration? = nil) {
        at(time) { [files] in files.apply([.rename(FilePath(path), to: FilePath(target))]) }
    }

    /// A `git checkout` that rewrites `changed` (path: new contents): git
    /// takes `.git/index.lock`, writes the files one millisecond apart, and
    /// renames the lock over the index. The tree must hold `.git`.
    public func gitCheckout(_ changed: [String: String], at time: Duration? = nil) {
        at(time) { [self] in
            files.apply([.write(".git/index.lock", [])])
            let files = self.files
            for (offset, (path, text)) in changed.sorted(by: { $0.key < $1.key }).enumerated() {
                scheduler.schedule(after: .milliseconds(offset + 1)) { files.apply([.write(FilePath(path), Array(text.utf8))]) }
            }
            scheduler.schedule(after: .milliseconds(changed.count + 1)) {
                files.apply([.rename(".git/index.lock", to: ".git/index")])
            }
        }
    }

    /// Whether `path` is a file or directory of the tree now.
    public func exists(_ path: String) -> Bool { files.exists(FilePath(path)) }

    /// Appends `lines` to the log at `path`, for the recipe's `Tail.follow`.
    public func append(_ lines: [String], to path: String, at time: Duration? = nil) {
        at(time) { [logs] in logs.append(lines, to: FilePath(path)) }
    }

    /// A key the user presses while no command holds the terminal.
    public enum Key: Sendable {
        /// `r` (or space): run now.
        case runNow
        /// `p`: pause, or resume.
        case pause
        /// `q`: quit with status 0.
        case quit

        var byte: UInt8 {
            switch self {
            case .runNow: UInt8(ascii: "r")
            case .pause: UInt8(ascii: "p")
            case .quit: UInt8(ascii: "q")
            }
        }
    }

    /// Presses `key`.
    public func press(_ key: Key, at time: Duration? = nil) {
        at(time) { [keys] in keys.sendNext(key.byte) }
    }

    /// A line arriving on standard input (`Stdin.lines`).
    public func type(_ line: String, at time: Duration? = nil) {
        at(time) { [input] in input.sendNext(line) }
    }

    /// The end of standard input.
    public func closeInput(at time: Duration? = nil) {
        at(time) { [input] in input.sendCompleted() }
    }
}
