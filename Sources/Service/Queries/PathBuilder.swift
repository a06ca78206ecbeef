/// Builds the relative paths of a table's entries during one query,
/// keeping those of the directories met so far, so that each file's path
/// costs one copy of its directory's path and its name.
struct PathBuilder {
    private var directories: [Int32: [UInt8]] = [0: []]

    /// The path of `id` relative to the root (empty for the root).
    mutating func path(of id: Int32, in table: FileTable) -> [UInt8] {
        if let known = directories[id] { return known }
        let entry = table[id]
        var path = directoryPath(entry.parent, in: table)
        if !path.isEmpty { path.append(UInt8(ascii: "/")) }
        table.withName(id) { path.append(contentsOf: $0) }
        return path
    }

    private mutating func directoryPath(_ id: Int32, in table: FileTable) -> [UInt8] {
        if let known = directories[id] { return known }
        guard id > 0 else { return [] }
        let path = path(of: id, in: table)
        directories[id] = path
        return path
    }
}
