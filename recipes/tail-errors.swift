import RecipeKit

// rwatch run tail-errors LOG…
//
// Follows the logs like tail -F (rotation, truncation, files appearing
// later) and prints the lines matching error|warn (any case) in red: first
// the last 10 such lines of each log, as tail -F shows the last 10, then
// new ones as they come. Runs a notification at most once per 10 s while
// errors keep coming: the command in NOTIFY (run with sh -c), else
// notify-send or a terminal bell.
let recipe = Recipe("tail-errors", "follow logs, colour error/warn lines, notify at most once per 10 s while they come") {
    let logs: [FilePath] = Recipe.paths.isEmpty ? ["app.log"] : Recipe.paths
    // One chain: every line printed is one the throttle sees (two
    // subscriptions to a shared follower could split its first lines).
    // A path is bytes: Quoted.escaped shows it on one line, whatever it holds.
    let alerts = Tail.follow(logs, from: .lastMatching(10), grep: "error|warn")
        .map { "\(Quoted.escaped($0.path)): \($0.text)" }
        .print(color: .red)
        .throttle(.seconds(10))
    if let command = Recipe.environment("NOTIFY") {
        alerts.notify(["sh", "-c", command])
    } else {
        alerts.notify(message: "errors in \(logs.map { Quoted.escaped($0) }.joined(separator: ", "))")
    }
}
