import WatchmanProtocol

/// What one connection does with the bytes it reads, decided without I/O:
/// cut them into PDUs, hand one request at a time to a handler (a client's
/// requests are answered in order), answer a malformed PDU or request with
/// an error, and close once the client has gone and nothing is left to do.
/// The loop feeds it what it read and carries out the actions it returns.
struct ConnectionMachine {
    enum Action: Equatable {
        /// Run this request's handler; report `handlerFinished` after.
        case dispatch(CommandRequest, WireEncoding)
        /// Send this error reply (nothing to run).
        case reply(WatchmanValue, WireEncoding)
        /// Close once what is queued for the client has been written.
        case closeAfterFlush
    }

    private var reader: PDUReader
    /// A handler is running for this connection.
    private(set) var isBusy = false
    /// The client will send nothing more (end of input, or the framing was lost).
    private(set) var inputEnded = false
    /// `closeAfterFlush` was returned.
    private(set) var isClosing = false
    private let version: String
    /// Above this many unread bytes the loop stops reading while busy.
    private let readAheadLimit: Int

    init(maximumLength: Int, version: String, readAheadLimit: Int = 1 << 20) {
        reader = PDUReader(maximumLength: maximumLength)
        self.version = version
        self.readAheadLimit = readAheadLimit
    }

    /// Whether the loop should read more: not after the end, and not while
    /// a handler runs with plenty already waiting.
    var wantsInput: Bool {
        !inputEnded && !isClosing && !(isBusy && reader.bufferedCount >= readAheadLimit)
    }

    mutating func received(_ bytes: some Sequence<UInt8>) -> [Action] {
        reader.append(bytes)
        return pump()
    }

    mutating func handlerFinished() -> [Action] {
        isBusy = false
        return pump()
    }

    /// The client shut its side: what is whole is still answered.
    mutating func endOfInput() -> [Action] {
        inputEnded = true
        return pump()
    }

    private mutating func pump() -> [Action] {
        var actions: [Action] = []
        while !isBusy && !isClosing {
            switch inputEnded ? reader.finish() : reader.next() {
            case .pdu(let value, let encoding):
                switch CommandRequest.parse(value) {
                case .success(let request):
                    isBusy = true
                    actions.append(.dispatch(request, encoding))
                case .failure(let error):
                    actions.append(.reply(error.reply(version: version), encoding))
                }
            case .malformed(let error, let encoding, let canContinue):
                actions.append(.reply(CommandError(error.description).reply(version: version), encoding))
                if !canContinue { inputEnded = true }
            case .needMoreBytes:
                if inputEnded {
                    isClosing = true
                    actions.append(.closeAfterFlush)
                }
                return actions
            }
        }
        return actions
    }
}

extension CommandRequest {
    /// A request is an array whose first element is the command's name;
    /// anything else gets watchman's error.
    static func parse(_ value: WatchmanValue) -> Result<CommandRequest, CommandError> {
        guard case .array(let elements) = value, let first = elements.first else {
            return .failure(CommandError("invalid command (expected an array with some elements!)"))
        }
        guard let name = first.text else {
            return .failure(CommandError("invalid command: expected element 0 to be the command name"))
        }
        return .success(CommandRequest(name: name, arguments: Array(elements.dropFirst())))
    }
}

extension CommandError {
    /// `{"version": …, fields…, "error": message}`.
    func reply(version: String) -> WatchmanValue {
        .object([("version", .string(version))] + fields + [("error", .string(message))])
    }
}

extension CommandRequest: Equatable {
    public static func == (lhs: CommandRequest, rhs: CommandRequest) -> Bool {
        lhs.name == rhs.name && lhs.arguments == rhs.arguments
    }
}
