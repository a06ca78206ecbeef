import Glibc
@testable import RecipeKit
import Testing

/// A fresh temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let path: String

    init() {
        var template = Array("/tmp/rwatch-test-XXXXXX".utf8CString)
        path = String(cString: mkdtemp(&template)!)
    }

    func file(_ name: String) -> String { path + "/" + name }

    func read(_ name: String) -> String? {
        guard let handle = fopen(file(name), "r") else { return nil }
        defer { fclose(handle) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, handle)
            if count == 0 { break }
            bytes += buffer[0..<count]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func remove() {
        _ = system("rm -rf '\(path)'")
    }
}
