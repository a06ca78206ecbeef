import Glibc

/// The keys rwatch answers while no command holds the terminal, like entr:
/// `r` or space run now, `p` pauses and resumes, `c` clears the screen, `q`
/// quits (exit 0). Everything else is ignored.
package enum KeyCommands {
    /// What a key asks for.
    enum Action: Equatable {
        case runNow, togglePause, clear, quit
    }

    static func action(for key: UInt8, endOfInputQuits: Bool = false) -> Action? {
        switch key {
        case 0x04 where endOfInputQuits: return .quit  // Ctrl-D: the end of input under --stdin-quit
        case UInt8(ascii: "r"), UInt8(ascii: " "), UInt8(ascii: "R"): return .runNow
        case UInt8(ascii: "p"), UInt8(ascii: "P"): return .togglePause
        case UInt8(ascii: "c"), UInt8(ascii: "C"): return .clear
        case UInt8(ascii: "q"), UInt8(ascii: "Q"): return .quit
        default: return nil
        }
    }

    /// Answers the keys of `Keyboard.keys` until disposed; `quit` runs on
    /// `q` (and on Ctrl-D with `endOfInputQuits`). Pausing is shared by
    /// every run action that starts chains.
    /// `keys` are the terminal's (`Keyboard.keys`) when live, a test's
    /// presses in a `RecipeTest`; `world` says where the status lines and
    /// the commands go.
    package static func listen(to keys: Signal<UInt8> = Keyboard.keys, quit: @escaping @Sendable () -> Void, endOfInputQuits: Bool = false,
                               world: RecipeWorld = .live) -> any Disposable {
        let paused = Locked(false)
        let (output, controls) = (world.output, world.controls)
        return keys.subscribe(onNext: { key in
            switch action(for: key, endOfInputQuits: endOfInputQuits) {
            case .runNow:
                output.status("↻ running now (key r)", color: .cyan)
                controls.sendNext(.runNow)
            case .togglePause:
                let nowPaused = paused.withLock { state -> Bool in
                    state.toggle()
                    return state
                }
                if nowPaused {
                    output.status("⏸ paused: changes are kept and run once on resume (p)", color: .yellow)
                    controls.sendNext(.pause)
                } else {
                    output.status("▶ resumed", color: .cyan)
                    controls.sendNext(.resume)
                }
            case .clear:
                output.clear(.screen)
            case .quit:
                quit()
            case nil:
                break
            }
        })
    }
}
