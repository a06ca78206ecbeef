extension QueryExpression {
    /// Whether `file` satisfies the expression. `allof` stops at the first
    /// false term, `anyof` at the first true one.
    func matches(_ file: FileView, _ context: EvaluationContext) -> Bool {
        switch self {
        case .constant(let value):
            return value
        case .allOf(let terms):
            return terms.allSatisfy { $0.matches(file, context) }
        case .anyOf(let terms):
            return terms.contains { $0.matches(file, context) }
        case .not(let term):
            return !term.matches(file, context)
        case .exists:
            return file.entry.exists
        case .empty:
            let type = file.entry.type
            return file.entry.exists && (type == .regular || type == .directory) && file.size == 0
        case .type(let type):
            return type == file.entry.type
        case .suffix(let suffixes):
            return Self.hasSuffix(file.basename, suffixes)
        case .size(let comparison):
            return file.entry.exists && comparison.test(file.size)
        case .match(let pattern, let wholename):
            return pattern.matches(wholename ? file.wholename : file.basename)
        case .name(let names, let wholename, let caseFold):
            let name = wholename ? file.wholename : file.basename
            return names.contains(caseFold ? name.map(NameFolding.lower) : Array(name))
        case .dirname(let directory, let depth, let caseFold):
            return Self.isBelow(file.wholename, directory, depth: depth, caseFold: caseFold)
        case .since(let term):
            return term.matches(file.entry, context)
        case .pcre(let regex, let wholename):
            return regex.matches(wholename ? file.wholename : file.basename)
        }
    }

    /// Whether the part of `name` after its last `.` is one of
    /// `suffixes` (given in lower case), in any ASCII case.
    private static func hasSuffix(_ name: UnsafeBufferPointer<UInt8>, _ suffixes: [[UInt8]]) -> Bool {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")) else { return false }
        let suffix = UnsafeBufferPointer(rebasing: name[(dot + 1)...])
        return suffixes.contains { candidate in
            candidate.count == suffix.count && zip(candidate, suffix).allSatisfy { $0 == NameFolding.lower($1) }
        }
    }

    /// Whether `name` lies below `directory` (the root when empty), at a
    /// depth (segments between them) the comparison accepts.
    private static func isBelow(_ name: UnsafeBufferPointer<UInt8>, _ directory: [UInt8], depth: IntComparison, caseFold: Bool) -> Bool {
        let slash = UInt8(ascii: "/")
        guard name.count > directory.count else { return false }
        var start = 0
        if !directory.isEmpty {
            guard name[directory.count] == slash else { return false }
            for (index, byte) in directory.enumerated() {
                let other = name[index]
                guard caseFold ? NameFolding.lower(other) == NameFolding.lower(byte) : other == byte else { return false }
            }
            start = directory.count + 1
        }
        var segments: Int64 = 0
        for index in start..<name.count where name[index] == slash { segments += 1 }
        return depth.test(segments)
    }
}

extension SinceTerm {
    /// `oclock`/`cclock` against a clock: changed (appeared) after its
    /// tick, or existing for a fresh instance; against a time: at or after
    /// it. `mtime`/`ctime` against a time: at or after it, to the second.
    func matches(_ entry: FileEntry, _ context: EvaluationContext) -> Bool {
        switch field {
        case .oclock, .cclock:
            let tick = UInt64(field == .oclock ? entry.oclock : entry.cclock)
            switch spec.termBasis(at: context.position, lastAgeOut: context.lastAgeOut) {
            case .fresh: return entry.exists
            case .tick(let since): return tick > since
            case .timestamp(let seconds): return context.times.time(of: UInt32(truncatingIfNeeded: tick)) >= seconds
            }
        case .mtime, .ctime:
            guard case .timestamp(let seconds) = spec else { return false }
            let nanoseconds = field == .mtime ? entry.mtime : entry.ctime
            return Self.seconds(nanoseconds) >= seconds
        }
    }

    /// Whole seconds of a time in nanoseconds, rounded down (as `st_mtime` is).
    static func seconds(_ nanoseconds: Int64) -> Int64 {
        nanoseconds >= 0 ? nanoseconds / 1_000_000_000 : (nanoseconds - 999_999_999) / 1_000_000_000
    }
}

extension ClockSpec {
    /// This spec as a `since` term reads it (no cursors there).
    func termBasis(at position: ClockPosition, lastAgeOut: UInt64) -> SinceBasis {
        var none: [String: UInt64] = [:]
        if case .cursor = self { return .fresh }
        return basis(at: position, lastAgeOut: lastAgeOut, cursors: &none)
    }
}

/// ASCII case folding, as watchman folds names (and wildmatch and PCRE2
/// without UTF mode fold them): other bytes are left as they are.
enum NameFolding {
    @inline(__always)
    static func lower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte | 0x20 : byte
    }

    static func lower(_ bytes: [UInt8]) -> [UInt8] { bytes.map(lower) }
}
