import WatchmanProtocol

extension QueryExpression {
    /// The deepest nesting of terms accepted: beyond it a query is refused
    /// rather than risking the stack of the thread that evaluates it.
    static let maximumDepth = 200

    /// Parses a watchman expression: a term name alone (`"exists"`) or an
    /// array whose first element names the term (`["suffix", "js"]`).
    /// `caseSensitive: false` (the query's `case_sensitive`) makes
    /// `match`, `name`, `dirname` and `pcre` fold ASCII case as their `i`
    /// forms do. Errors read as watchman's.
    init(parsing value: WatchmanValue, caseSensitive: Bool = true) throws(QueryError) {
        self = try Self.parse(value, caseSensitive: caseSensitive, depth: 0)
    }

    private static func parse(_ value: WatchmanValue, caseSensitive: Bool, depth: Int) throws(QueryError) -> QueryExpression {
        guard depth < maximumDepth else { throw .parse("expression is nested more than \(maximumDepth) deep") }
        let name: String
        let term: [WatchmanValue]?
        if let text = value.text {
            name = text
            term = nil
        } else if let elements = value.elements {
            guard let first = elements.first?.text else { throw .parse("first element of an expression must be a string") }
            name = first
            term = elements
        } else {
            throw .parse("expected array or string for an expression")
        }
        let fold = !caseSensitive
        switch name {
        case "true": return .constant(true)
        case "false": return .constant(false)
        case "exists": return .exists
        case "empty": return .empty
        case "allof", "anyof":
            guard let term else { throw .parse("must use [\"\(name)\", expr...]") }
            var terms: [QueryExpression] = []
            for element in term.dropFirst() { terms.append(try parse(element, caseSensitive: caseSensitive, depth: depth + 1)) }
            return name == "allof" ? .allOf(terms) : .anyOf(terms)
        case "not":
            guard let term, term.count == 2 else { throw .parse("must use [\"not\", expr]") }
            return .not(try parse(term[1], caseSensitive: caseSensitive, depth: depth + 1))
        case "type": return try parseType(term)
        case "suffix": return try parseSuffix(term)
        case "size":
            guard let term else { throw .parse("Expected array for 'size' term") }
            return .size(try IntComparison(parsing: term))
        case "match", "imatch": return try parseMatch(term, name: name, caseFold: fold || name == "imatch")
        case "name", "iname": return try parseName(term, name: name, caseFold: fold || name == "iname")
        case "dirname", "idirname": return try parseDirname(term, name: name, caseFold: fold || name == "idirname")
        case "since": return try parseSince(term)
        case "pcre", "ipcre": return try parsePCRE(term, name: name, caseless: fold || name == "ipcre")
        default: throw .parse("unknown expression term '\(name)'")
        }
    }

    private static func parseType(_ term: [WatchmanValue]?) throws(QueryError) -> QueryExpression {
        guard let term else { throw .parse("\"type\" term requires a type string parameter") }
        guard term.count > 1, let letters = term[1].text else { throw .parse("First parameter to \"type\" term must be a type string") }
        guard letters.count == 1, let letter = letters.first, "bcdfplsD".contains(letter) else {
            throw .parse("invalid type string '\(letters)'")
        }
        return .type(FileType(letter: letter))
    }

    private static func parseSuffix(_ term: [WatchmanValue]?) throws(QueryError) -> QueryExpression {
        guard let term else { throw .parse("Expected array for 'suffix' term") }
        guard term.count == 2 else { throw .parse("Invalid number of arguments for 'suffix' term") }
        let problem = QueryError.parse("Argument 2 to 'suffix' must be either a string or an array of string")
        return .suffix(try strings(term[1], else: problem).map(NameFolding.lower))
    }

    /// One string, or an array of strings (`problem` otherwise).
    private static func strings(_ value: WatchmanValue, else problem: QueryError) throws(QueryError) -> [[UInt8]] {
        if let bytes = value.stringBytes { return [bytes] }
        guard let elements = value.elements else { throw problem }
        var result: [[UInt8]] = []
        for element in elements {
            guard let bytes = element.stringBytes else { throw problem }
            result.append(bytes)
        }
        return result
    }

    /// `basename` (the default) or `wholename`, from the argument at `index`.
    private static func scope(_ term: [WatchmanValue], at index: Int, name: String, problem: String) throws(QueryError) -> Bool {
        guard term.count > index else { return false }
        guard let scope = term[index].text else { throw .parse(problem) }
        guard scope == "basename" || scope == "wholename" else { throw .parse("Invalid scope '\(scope)' for \(name) expression") }
        return scope == "wholename"
    }

    private static func parseMatch(_ term: [WatchmanValue]?, name: String, caseFold: Bool) throws(QueryError) -> QueryExpression {
        guard let term, term.count > 1, let pattern = term[1].stringBytes else {
            throw .parse("First parameter to \"\(name)\" term must be a pattern string")
        }
        guard term.count <= 4 else { throw .parse("too many parameters passed to \"\(name)\" expression") }
        let wholename = try scope(term, at: 2, name: name, problem: "Second parameter to \"\(name)\" term must be an optional scope string")
        var noEscape = false, includeDotFiles = false
        if term.count > 3 {
            let options = term[3]
            guard case .object = options else { throw .parse("Third parameter to \"\(name)\" term must be an optional object") }
            guard let escape = options.bool("noescape", default: false) else {
                throw .parse("noescape option for \"\(name)\" term must be a boolean")
            }
            guard let dotFiles = options.bool("includedotfiles", default: false) else {
                throw .parse("includedotfiles option for \"\(name)\" term must be a boolean")
            }
            noEscape = escape
            includeDotFiles = dotFiles
        }
        let matcher = Wildmatch(pattern, wholename: wholename, caseFold: caseFold, includeDotFiles: includeDotFiles, noEscape: noEscape)
        return .match(matcher, wholename: wholename)
    }

    private static func parseName(_ term: [WatchmanValue]?, name: String, caseFold: Bool) throws(QueryError) -> QueryExpression {
        guard let term else { throw .parse("Expected array for '\(name)' term") }
        guard term.count == 2 || term.count == 3 else { throw .parse("Invalid number of arguments for '\(name)' term") }
        let wholename = try scope(term, at: 2, name: name, problem: "Argument 3 to '\(name)' must be a string")
        let problem = QueryError.parse("Argument 2 to '\(name)' must be either a string or an array of string")
        let names = try strings(term[1], else: problem)
        return .name(Set(caseFold ? names.map(NameFolding.lower) : names), wholename: wholename, caseFold: caseFold)
    }

    private static func parseDirname(_ term: [WatchmanValue]?, name: String, caseFold: Bool) throws(QueryError) -> QueryExpression {
        guard let term else { throw .parse("Expected array for '\(name)' term") }
        guard term.count == 2 || term.count == 3 else { throw .parse("Invalid number of arguments for '\(name)' term") }
        guard var directory = term[1].stringBytes else { throw .parse("Argument 2 to '\(name)' must be a string") }
        var depth = IntComparison(.ge, 0)
        if term.count == 3 {
            guard let relation = term[2].elements else { throw .parse("Invalid number of arguments for '\(name)' term") }
            depth = try IntComparison(parsing: relation)
            guard relation.first?.text == "depth" else { throw .parse("Third parameter to '\(name)' should be a relational depth term") }
        }
        while directory.count > 1, directory.last == UInt8(ascii: "/") { directory.removeLast() }
        return .dirname(caseFold ? NameFolding.lower(directory) : directory, depth: depth, caseFold: caseFold)
    }

    private static func parseSince(_ term: [WatchmanValue]?) throws(QueryError) -> QueryExpression {
        guard let term else { throw .parse("\"since\" term must be an array") }
        guard term.count == 2 || term.count == 3 else { throw .parse("\"since\" term has invalid number of parameters") }
        guard let spec = try? ClockSpec(parsing: term[1]) else { throw .parse("invalid clockspec for \"since\" term") }
        if case .cursor = spec { throw .parse("named cursors are not allowed in \"since\" terms") }
        var field = SinceTerm.Field.oclock
        if term.count == 3 {
            guard let name = term[2].text else { throw .parse("field name for \"since\" term must be a string") }
            guard let named = SinceTerm.Field(rawValue: name) else { throw .parse("invalid field name \"\(name)\" for \"since\" term") }
            field = named
        }
        if field == .mtime || field == .ctime, case .timestamp = spec {} else if field == .mtime || field == .ctime {
            throw .parse("field \"\(field.rawValue)\" requires a timestamp value for comparison in \"since\" term")
        }
        return .since(SinceTerm(spec: spec, field: field))
    }

    private static func parsePCRE(_ term: [WatchmanValue]?, name: String, caseless: Bool) throws(QueryError) -> QueryExpression {
        guard let term, term.count > 1, let pattern = term[1].stringBytes else {
            throw .parse("First parameter to \"\(name)\" term must be a pattern string")
        }
        guard term.count <= 3 else { throw .parse("too many parameters passed to \"\(name)\" expression") }
        let wholename = try scope(term, at: 2, name: name, problem: "Second parameter to \"\(name)\" term must be an optional scope string")
        return .pcre(try Regex(pattern, caseless: caseless, term: name), wholename: wholename)
    }
}
