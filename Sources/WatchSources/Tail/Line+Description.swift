extension Tail.Line: CustomStringConvertible {
    /// The line's text, so that `print` and string interpolation show what
    /// the file holds (`"\(line)"`), not the struct. `path` says which file.
    public var description: String { text }
}
