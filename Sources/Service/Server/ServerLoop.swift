import Glibc
import Signals
import WatchSources
import WatchmanProtocol

/// The socket loop: one thread in `poll(2)` over the listening socket, the
/// wake-up pipe and every client. It accepts, reads and writes without
/// blocking; what the bytes mean is `ConnectionMachine`'s to decide.
struct ServerLoop {
    /// One client's socket and its machine; owned by the loop thread.
    private struct Connection {
        let fd: Int32
        let client: ServiceClient
        var machine: ConnectionMachine
    }

    private let server: WatchmanServer
    private let listener: Int32
    private let wake: WakePipe
    private var connections: [Int: Connection] = [:]
    private var readBuffer = [UInt8](repeating: 0, count: 64 << 10)
    /// Set while `accept` finds no descriptor free: the listening socket
    /// stays readable, and polled it would spin the loop. Connections wait
    /// in the backlog; accepting is tried again after the next `poll`
    /// (at most 100 ms later, sooner when a client comes or goes).
    private var outOfDescriptors = false
    /// Whether the log said so since the backlog was last found empty.
    private var toldOutOfDescriptors = false

    init(server: WatchmanServer, listener: Int32, wake: WakePipe) {
        self.server = server
        self.listener = listener
        self.wake = wake
    }

    /// Serves until the server is asked to stop, then writes what is
    /// queued (briefly) and closes every connection.
    mutating func run() {
        while !server.isStopping {
            let paused = outOfDescriptors
            step(accepting: !paused, timeout: paused ? 100 : -1)
            if paused { outOfDescriptors = false }
        }
        // Let replies already decided (the one to shutdown-server among
        // them) reach their clients, for at most two seconds.
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let end = deadline.tv_sec + 2
        while connections.values.contains(where: { $0.machine.isBusy || $0.client.queuedBytes > 0 }) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            guard now.tv_sec < end else { break }
            step(accepting: false, timeout: 100)
        }
        for id in Array(connections.keys) { closeConnection(id) }
    }

    /// One `poll` and what it found.
    private mutating func step(accepting: Bool, timeout: Int32) {
        var ids: [Int] = []
        var fds: [pollfd] = [pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        if accepting { fds.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0)) }
        let base = fds.count
        for (id, connection) in connections {
            var events: Int32 = 0
            if connection.machine.wantsInput && !server.isStopping { events |= POLLIN }
            if connection.client.queuedBytes > 0 { events |= POLLOUT }
            ids.append(id)
            // Nothing wanted: left out (a negative fd), or a client that hung
            // up while its handler runs would report POLLHUP without end and
            // spin the loop until the handler is done.
            fds.append(pollfd(fd: events == 0 ? -1 : connection.fd, events: Int16(events), revents: 0))
        }
        let ready = poll(&fds, nfds_t(fds.count), timeout)
        server.rounds.add(1, ordering: .relaxed)
        guard ready >= 0 else { return }  // EINTR
        if fds[0].revents != 0 {
            wake.drain()
        }
        for id in server.takeFinished() {
            guard connections[id] != nil else { continue }
            let actions = connections[id]!.machine.handlerFinished()
            perform(actions, on: id)
        }
        for (offset, id) in ids.enumerated() {
            let revents = Int32(fds[base + offset].revents)
            guard revents != 0, connections[id] != nil else { continue }
            if revents & POLLOUT != 0 { flush(id) }
            if revents & (POLLIN | POLLHUP | POLLERR) != 0, connections[id] != nil { readFrom(id) }
        }
        // Output queued by other threads since: try to write it now.
        for id in Array(connections.keys) where connections[id]?.client.queuedBytes ?? 0 > 0 { flush(id) }
        for (id, connection) in connections where connection.machine.isClosing && connection.client.queuedBytes == 0 {
            closeConnection(id)
        }
        if accepting && fds[1].revents != 0 { acceptAll() }
    }

    private mutating func acceptAll() {
        // At most a batch per step, so a storm of connections cannot starve
        // the clients already connected.
        for _ in 0..<64 {
            let fd: Int32
            switch server.accept(listener) {
            case .connection(let accepted):
                fd = accepted
            case .none:
                // The backlog is empty: a later shortage is another episode.
                toldOutOfDescriptors = false
                return
            case .outOfDescriptors(let code):
                outOfDescriptors = true
                if !toldOutOfDescriptors {
                    toldOutOfDescriptors = true
                    server.log.log(.error, "cannot accept a connection: \(String(cString: strerror(code))); it waits until a descriptor is free (ulimit -n)")
                }
                return
            }
            // This user is served; another only when the configuration
            // opened the socket to them (`sock_access`, `secondary_sock_group`),
            // and then as a client that may only look. Anyone else is
            // closed on at once.
            guard let peer = UnixSocket.peer(of: fd),
                  peer.uid == geteuid() || server.configuration.socketAccess.admitsOtherUsers else {
                close(fd)
                continue
            }
            let client = server.makeClient(peer: peer, socket: fd)
            if peer.uid != geteuid() { client.dropPrivileges() }
            let machine = ConnectionMachine(maximumLength: server.configuration.maximumRequestLength, version: server.configuration.version)
            connections[client.id] = Connection(fd: fd, client: client, machine: machine)
        }
    }

    private mutating func readFrom(_ id: Int) {
        guard let fd = connections[id]?.fd else { return }
        // A bounded number of reads, so one fast client cannot hold the loop.
        for _ in 0..<16 {
            guard connections[id]?.machine.wantsInput == true else { return }
            let count = readBuffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                let actions = connections[id]!.machine.received(readBuffer[0..<count])
                perform(actions, on: id)
            } else if count == 0 {
                perform(connections[id]!.machine.endOfInput(), on: id)
                return
            } else {
                if errno == EINTR { continue }
                if errno != EAGAIN && errno != EWOULDBLOCK { closeConnection(id) }
                return
            }
        }
    }

    private mutating func perform(_ actions: [ConnectionMachine.Action], on id: Int) {
        // A worklist, not recursion: each request answered here lets the
        // machine hand over the next one the client already sent.
        var pending = actions[...]
        while let action = pending.popFirst() {
            guard let connection = connections[id] else { return }
            switch action {
            case .dispatch(let request, let encoding):
                if server.answerOnLoop(request, encoding: encoding, client: connection.client) {
                    pending += connections[id]!.machine.handlerFinished()
                } else {
                    server.dispatch(request, encoding: encoding, client: connection.client)
                }
            case .reply(let value, let encoding):
                connection.client.reply(encoding.encode(value), encoding: encoding)
            case .closeAfterFlush:
                break  // closed by `step` once the queue is empty
            }
        }
    }

    /// Writes what is queued until the socket would block.
    private mutating func flush(_ id: Int) {
        guard let connection = connections[id] else { return }
        while let (chunk, offset) = connection.client.withOutbox({ $0.front }) {
            let written = chunk.withUnsafeBytes { raw in
                send(connection.fd, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if written > 0 {
                connection.client.withOutbox { $0.consumed(written) }
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                if written < 0 && errno != EAGAIN && errno != EWOULDBLOCK { closeConnection(id) }
                return
            }
        }
    }

    private mutating func closeConnection(_ id: Int) {
        guard let connection = connections.removeValue(forKey: id) else { return }
        // Closed for other threads first: none writes to the descriptor
        // once it is closed (and its number perhaps given to another).
        connection.client.markClosed()
        close(connection.fd)
    }
}
