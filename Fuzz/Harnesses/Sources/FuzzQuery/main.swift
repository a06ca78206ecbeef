// The service's query parser: a JSON line read as a query object (and as
// an expression alone), then, when it parses, run against a small table.
// Properties: parsing answers a value or an error and never traps; a
// query that parses evaluates (wildmatch, PCRE2, dirname, since, the
// generators) without trapping, and reports only names the table holds.
import FuzzSupport
import Glibc
import WatchmanProtocol
@testable import Service

/// A table of a few names of every kind the terms look at.
let table: FileTable = {
    let directory = FileStat(ino: 1, mode: UInt32(S_IFDIR) | 0o755)
    var table = FileTable(root: directory)
    table.advance(now: 1_700_000_000)
    var ids: [String: Int32] = ["": 0]
    let names = ["a", "a/b.c", "a/.hidden", "a/deep", "a/deep/x.TXT", "b", "ß.md", "link", "empty"]
    for (index, path) in names.enumerated() {
        let parent = ids[path.split(separator: "/").dropLast().joined(separator: "/")] ?? 0
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let mode = ["a", "a/deep"].contains(path) ? UInt32(S_IFDIR) | 0o755 : (path == "link" ? UInt32(S_IFLNK) | 0o777 : UInt32(S_IFREG) | 0o644)
        let stat = FileStat(size: Int64(index * 7), ino: UInt64(index + 2), mode: mode, mtime: Int64(index) * 1_000_000_000)
        ids[path] = Array(name.utf8).withUnsafeBufferPointer { table.record(parent: parent, name: $0, stat).id }
    }
    table.advance(now: 1_700_000_100)
    if let gone = ids["b"] { table.markDeleted(gone) }
    return table
}()

let known = Set(["a", "a/b.c", "a/.hidden", "a/deep", "a/deep/x.TXT", "b", "ß.md", "link", "empty"].map { Array($0.utf8) })

fuzz { data, size in
    let input = bytes(data, size)
    guard let value = try? JSONLines.decode(input) else { return 0 }
    _ = try? QueryExpression(parsing: value, caseSensitive: size % 2 == 0)
    guard let spec = try? QuerySpec(parsing: value) else { return 0 }
    var cursors: [String: UInt64] = [:]
    guard let outcome = try? QueryEngine(spec: spec, table: table, rootNumber: 1).run(cursors: &cursors) else { return 0 }
    for match in outcome.matches {
        let full = (spec.relativeRoot.map { $0 + [UInt8(ascii: "/")] } ?? []) + match.name
        check(known.contains(full), "a query reported a name the table does not hold: \(String(decoding: full, as: UTF8.self))")
    }
    let renderer = FieldRenderer(fields: spec.fields, position: outcome.position, basis: outcome.basis, times: table.times,
                                 base: Array("/nonexistent".utf8), hashes: nil)
    _ = renderer.render(outcome.matches)
    return 0
}
