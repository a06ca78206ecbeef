/// Text a user typed or wrote that does not parse (a duration, a signal
/// name, a line of an env file): one line that says what is accepted,
/// printed as it is.
package struct InputError: Error, CustomStringConvertible, Sendable, Hashable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
