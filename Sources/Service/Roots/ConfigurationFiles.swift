import Glibc
import WatchmanProtocol

/// Reads watchman's configuration files: the global one (named by
/// `WATCHMAN_CONFIG_FILE`; none when unset) and a root's `.watchmanconfig`.
/// Both are JSON objects (an empty file is an empty one); a damaged one is
/// a `Problem` whose text says which file and why (`failed to parse json
/// from …`), never a crash.
enum ConfigurationFiles {
    /// The largest configuration file read.
    static let limit = 1 << 20

    /// The global file's object and path, from `environment`.
    static func global(environment: [String: String]) -> Result<(WatchmanValue, String), RootConfiguration.Problem> {
        guard let path = environment["WATCHMAN_CONFIG_FILE"], !path.isEmpty else { return .success((.object([]), "(none)")) }
        return read(Array(path.utf8)).map { ($0 ?? .object([]), path) }
    }

    /// The root's `.watchmanconfig`, or nil when it has none.
    static func local(root: [UInt8]) -> Result<WatchmanValue?, RootConfiguration.Problem> {
        read(root + Array("/.watchmanconfig".utf8))
    }

    /// The object in the file at `path`; nil when there is no file.
    static func read(_ path: [UInt8]) -> Result<WatchmanValue?, RootConfiguration.Problem> {
        let shown = String(decoding: path, as: UTF8.self)
        let fd = open(Cookies.cPath(path), O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .success(nil) }
            return .failure(.init(description: "\(shown) is not accessible: \(String(cString: strerror(errno)))"))
        }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while bytes.count <= limit {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                if count < 0 { return .failure(.init(description: "\(shown): \(String(cString: strerror(errno)))")) }
                break
            }
            bytes += buffer[0..<count]
        }
        guard bytes.count <= limit else { return .failure(.init(description: "\(shown) is larger than \(limit) bytes")) }
        // An empty file (watchman's own advice: "create an empty
        // .watchmanconfig") is an empty object, as watchman reads it.
        if bytes.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return .success(.object([])) }
        do {
            let value = try JSONLines.decode(bytes)
            guard case .object = value else { return .failure(.init(description: "failed to parse json from \(shown): not an object")) }
            return .success(value)
        } catch {
            return .failure(.init(description: "failed to parse json from \(shown): \(error)"))
        }
    }
}
