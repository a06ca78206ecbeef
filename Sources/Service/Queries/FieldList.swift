import WatchmanProtocol

/// The fields a query reports for each file, in the order asked
/// (`["name", "size"]`); with one field each file is that field's value
/// alone, with more an object of them.
struct FieldList: Sendable, Equatable {
    /// A field watchman defines (`docs/cmd/query.md`); `atime` is not kept.
    enum Field: String, Sendable, CaseIterable {
        case name, exists, new, type, size, mode, uid, gid, ino, dev, nlink
        case mtime, mtime_ms, mtime_us, mtime_ns, mtime_f
        case ctime, ctime_ms, ctime_us, ctime_ns, ctime_f
        case oclock, cclock
        case symlink_target
        case sha1hex = "content.sha1hex"
    }

    var fields: [Field]

    /// watchman's default: name, exists, new, size, mode.
    static let standard = FieldList(fields: [.name, .exists, .new, .size, .mode])
    /// What `find` and `since` report (watchman's legacy list).
    static let legacy = FieldList(fields: [.name, .exists, .size, .mode, .uid, .gid, .mtime, .ctime, .ino, .dev, .nlink, .new, .cclock, .oclock])

    init(fields: [Field]) {
        self.fields = fields
    }

    /// Reads a `fields` member: an array of field names.
    init(parsing value: WatchmanValue) throws(QueryError) {
        guard let elements = value.elements else { throw .parse("field list must be an array of strings") }
        var fields: [Field] = []
        for element in elements {
            guard let name = element.text else { throw .parse("field list must be an array of strings") }
            guard let field = Field(rawValue: name) else { throw .parse("unknown field name '\(name)'") }
            fields.append(field)
        }
        self.fields = fields
    }

    var needsSymlinkTargets: Bool { fields.contains(.symlink_target) }
    var needsHashes: Bool { fields.contains(.sha1hex) }
}
