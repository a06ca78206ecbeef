/// What the keys ask of the run actions that start chains (those whose
/// trigger has a `manual` value: file changes): run now, pause, resume.
/// `RecipeRunner` sends; every such `CommandAction` listens.
package enum RunControl {
    package enum Command: Sendable {
        /// `r` or space: run now, under the action's `OnBusy` policy.
        case runNow
        /// `p`: hold triggers (merged) instead of running them.
        case pause
        /// `p` again: run what was held, once.
        case resume
    }

    /// The commands, hot: an action sees those sent while it is subscribed.
    package static let commands = PublishSubject<Command>()
}
