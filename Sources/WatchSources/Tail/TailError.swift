import SystemPackage

/// Why a file cannot be followed. `description` is one line naming it.
public struct TailError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The path as given.
    public var path: FilePath
    /// What is wrong, e.g. "directory /x does not exist".
    public var problem: String

    public init(path: FilePath, problem: String) {
        self.path = path
        self.problem = problem
    }

    public var description: String {
        "cannot follow \(Quoted.path(path)): \(problem)"
    }
}
