/// What `tail -F` decides about one followed name, as one value: whether a
/// file is open under it, whether that file still has the name, and what
/// to do when the name, the file or its size changes. Pure: `TailFollower`
/// looks (stat, fstat, the size) and reports here, then performs the
/// actions that come back, in order, with the descriptors and reads that
/// are its own.
///
///     waiting ──file appears──▶ opening(appeared) ──opened──▶ following
///     following ──name gone──▶ orphaned ──another file──▶ opening(rotated)
///     following ──open file deleted──▶ gone ──name missing──▶ waiting
///     following(stream) ──end──▶ opening(reopened) (a FIFO) or finished
///
/// A renamed file stays open (orphaned) and is still read, since its
/// writer may add to it until it reopens its log, until another file
/// takes the name: then its rest is read, its last line finished, and the
/// new file read from its beginning.
struct TailMachine: Equatable {
    /// What kind of file is open: a regular file is read at offsets to
    /// its size; a stream (FIFO, pipe, terminal) as `poll` says.
    enum Kind: Equatable {
        case file
        case stream
    }

    /// Why the name is being opened, which decides what is said once it is.
    enum Opening: Equatable {
        /// At subscription: nothing to say.
        case subscribed
        /// A file appeared under a name that had none.
        case appeared
        /// Another file took the name of the one that was open.
        case rotated
        /// A named FIFO's writer left; it is opened for the next one.
        case reopened
    }

    enum State: Equatable {
        /// Nothing is open: the name (or its directory) is missing.
        case waiting
        /// The open file was deleted and closed; the name is to be looked at.
        case gone
        /// The name is being opened.
        case opening(Opening)
        /// The open file is the one under the name.
        case following(Kind)
        /// The open file lost the name (renamed away) and is still read.
        case orphaned(Kind)
        /// A stream that cannot be opened again ended: nothing more comes.
        case finished
    }

    /// What became of the name when it was looked at.
    enum Lookup: Equatable {
        /// Nothing exists under it.
        case missing
        /// It names the open file.
        case openFile
        /// It names another file than the open one (or one, when none is).
        case otherFile
    }

    /// What an attempt to open the name gave.
    enum Opened: Equatable {
        /// Nothing could be opened (missing, or not a file to follow).
        case nothing
        case opened(Kind)
    }

    /// What `tail -F` says about the name (`Tail.Notice`).
    enum Notice: Equatable {
        case waiting
        case appeared
        case rotated
        case truncated
    }

    /// What the follower does, in the order given.
    enum Action: Equatable {
        /// Read the open regular file from the offset to its end.
        case readToEnd
        /// Read what the open stream holds now.
        case drainStream
        /// Deliver the held unfinished line as a line.
        case finishLine
        /// Close the open file.
        case close
        /// Open the name, from its beginning; report with `opened(_:)`.
        case open
        /// Open the name again, then close the old descriptor (a FIFO's
        /// next writer may have left bytes that live only while it is
        /// held open); report with `opened(_:)`.
        case reopen
        /// Read the open file from offset 0 again.
        case startOver
        case notice(Notice)
    }

    private(set) var state: State = .waiting

    /// Nothing more comes under the name.
    var isFinished: Bool { state == .finished }

    /// The name was opened (or not) at subscription, before any lookup.
    mutating func subscribed(_ result: Opened) {
        state = .opening(.subscribed)
        _ = opened(result)
    }

    /// The open file has no name left (its link count is 0): what is left
    /// of it is read and it is closed, as an open file pins its directory,
    /// whose deletion would otherwise wait for this close.
    mutating func openFileDeleted() -> [Action] {
        guard let kind = openKind else { return [] }
        state = .gone
        return kind == .stream ? [.drainStream, .finishLine, .close] : [.finishLine, .close]
    }

    /// The name was looked at (after the open file was read to its end).
    mutating func looked(_ lookup: Lookup) -> [Action] {
        switch (state, lookup) {
        case (.finished, _), (.opening, _):
            return []
        case (.waiting, .missing):
            return []
        case (.gone, .missing):
            state = .waiting
            return [.notice(.waiting)]
        case (.waiting, _), (.gone, _):
            state = .opening(.appeared)
            return [.open]
        case (.following(let kind), .missing), (.orphaned(let kind), .missing):
            state = .orphaned(kind)
            return []
        case (.following(let kind), .openFile), (.orphaned(let kind), .openFile):
            state = .following(kind)
            return []
        case (.following(let kind), .otherFile), (.orphaned(let kind), .otherFile):
            // The rest of the old file first, its last line too.
            state = .opening(.rotated)
            return [kind == .stream ? .drainStream : .readToEnd, .finishLine, .close, .open]
        }
    }

    /// What an `open` or `reopen` gave.
    mutating func opened(_ result: Opened) -> [Action] {
        guard case .opening(let why) = state else { return [] }
        guard case .opened(let kind) = result else {
            state = .waiting
            // A FIFO gone meanwhile (or a directory now): waited for.
            return why == .reopened ? [.notice(.waiting)] : []
        }
        state = .following(kind)
        let read: [Action] = kind == .file ? [.readToEnd] : []
        switch why {
        case .subscribed: return []
        case .appeared: return [.notice(.appeared)] + read
        case .rotated: return [.notice(.rotated)] + read
        case .reopened: return kind == .file ? [.notice(.rotated)] + read : []
        }
    }

    /// The open stream ended (its last writer gone, or the device failed).
    /// A named FIFO (`reopens`) is opened again for its next writer;
    /// anything else ends the name.
    mutating func streamEnded(reopens: Bool) -> [Action] {
        guard openKind == .stream else { return [] }
        if reopens {
            state = .opening(.reopened)
            return [.finishLine, .reopen]
        }
        state = .finished
        return [.finishLine, .close]
    }

    /// The open regular file is `size` bytes long and was read up to
    /// `offset`: shorter means truncated (copytruncate), so the held line
    /// ends there and reading starts over.
    func sized(_ size: Int, offset: Int) -> [Action] {
        size < offset ? [.finishLine, .startOver, .notice(.truncated)] : []
    }

    /// The kind of the open file, nil when none is open.
    private var openKind: Kind? {
        switch state {
        case .following(let kind), .orphaned(let kind): return kind
        case .waiting, .gone, .opening, .finished: return nil
        }
    }
}
