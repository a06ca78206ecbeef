import SystemPackage

/// The address of a `--socket`, read from what the user typed (no I/O):
///
///     8080, :8080, tcp::8080      127.0.0.1 port 8080 (only this machine)
///     0.0.0.0:8080, [::]:8080     every address
///     [::1]:8080, tcp:10.0.0.2:80 that address
///     unix:/run/app.sock          a socket file
///     unix:@app                   the abstract namespace
///     web=127.0.0.1:8080          named `web` in LISTEN_FDNAMES
enum ListenSocketSpec {
    static func parse(_ spec: String) throws(ListenSocketError) -> (name: String, address: ListenSocket.Address) {
        var rest = Substring(spec)
        var name: String?
        if let equals = rest.firstIndex(of: "="), isName(rest[..<equals]) {
            name = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
        }
        if rest.hasPrefix("unix:") {
            let path = rest.dropFirst(5)
            guard !path.isEmpty else { throw ListenSocketError(spec: spec, problem: .syntax("unix: needs a path")) }
            if path.hasPrefix("@") {
                return (name ?? "unix", .abstract(String(path.dropFirst())))
            }
            return (name ?? "unix", .unix(FileSystem.absolute(FilePath(String(path)))))
        }
        if rest.hasPrefix("tcp:") { rest = rest.dropFirst(4) }
        let (host, port) = try hostAndPort(rest, spec: spec)
        return (name ?? "tcp", .tcp(host: host, port: port))
    }

    /// `PORT`, `:PORT`, `HOST:PORT` or `[V6]:PORT`; the host as numbers
    /// (`localhost` and nothing are 127.0.0.1).
    private static func hostAndPort(_ text: Substring, spec: String) throws(ListenSocketError) -> (String, UInt16) {
        var host = Substring("")
        var portText = text
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ListenSocketError(spec: spec, problem: .syntax("expected [IPV6]:PORT"))
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else if let colon = text.lastIndex(of: ":") {
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            // An IPv6 address is written in brackets.
            if host.contains(":") { throw ListenSocketError(spec: spec, problem: .badAddress) }
        }
        guard !portText.isEmpty, portText.allSatisfy(\.isASCIIDigit), let port = UInt16(portText) else {
            throw ListenSocketError(spec: spec, problem: .badPort)
        }
        let numeric = host.isEmpty || host == "localhost" ? "127.0.0.1" : String(host)
        guard numeric.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else {
            throw ListenSocketError(spec: spec, problem: .badAddress)
        }
        return (numeric, port)
    }

    /// A name systemd would take in `LISTEN_FDNAMES`: ASCII letters,
    /// digits and `_.-@`, no `:`, at most 255 characters.
    private static func isName(_ text: Substring) -> Bool {
        !text.isEmpty && text.count <= 255 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_.-@".contains($0)) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
