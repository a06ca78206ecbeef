import WatchmanProtocol

/// A relational test on an integer, as the `size` term and `dirname`'s
/// `depth` write it: `["size", "gt", 0]`, `["depth", "ge", 2]`.
struct IntComparison: Sendable, Equatable {
    enum Operator: String, Sendable, CaseIterable {
        case eq, ne, gt, ge, lt, le
    }

    var op: Operator
    var operand: Int64

    /// Reads a three-element array: a name (checked by the caller), an
    /// operator and an integer operand.
    init(parsing term: [WatchmanValue]) throws(QueryError) {
        guard term.count == 3 else { throw .parse("integer comparator must have 3 elements") }
        guard let name = term[1].text else { throw .parse("integer comparator op must be a string") }
        guard case .int(let operand) = term[2] else { throw .parse("integer comparator operand must be an integer") }
        guard let op = Operator(rawValue: name) else { throw .parse("integer comparator opname `\(name)' is invalid") }
        self.op = op
        self.operand = operand
    }

    init(_ op: Operator, _ operand: Int64) {
        self.op = op
        self.operand = operand
    }

    func test(_ value: Int64) -> Bool {
        switch op {
        case .eq: value == operand
        case .ne: value != operand
        case .gt: value > operand
        case .ge: value >= operand
        case .lt: value < operand
        case .le: value <= operand
        }
    }
}
