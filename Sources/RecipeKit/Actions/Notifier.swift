import Glibc

/// How `notify(message:)` reaches the user.
enum Notifier {
    /// `notify-send rwatch MESSAGE` when notify-send is on PATH and a
    /// display is set, else nil.
    static func desktopCommand(_ message: String) -> [String]? {
        guard getenv("DISPLAY") != nil || getenv("WAYLAND_DISPLAY") != nil else { return nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for dir in path.split(separator: ":") where access("\(dir)/notify-send", X_OK) == 0 {
            return ["\(dir)/notify-send", "rwatch", message]
        }
        return nil
    }

    /// `-N`: a desktop notification when there is a desktop to show it,
    /// else the terminal bell, else nothing (and never an error).
    static func announce(_ message: String) {
        if let command = desktopCommand(message) {
            _ = ProcessSource.run(command, options: ProcessOptions()).subscribe()
        } else {
            Terminal.bell()
        }
    }

    static func show(_ message: String, command: [String]?) {
        if let command {
            _ = ProcessSource.run(command, options: ProcessOptions()).subscribe()
        } else {
            Terminal.bell()
            Terminal.status(message, color: .yellow)
        }
    }
}
