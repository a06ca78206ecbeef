import RecipeKit

// rwatch run dev-server [-- SERVER ARGS…]
//
// Keeps a long-running server up: starts it at once and, whenever a file
// under WATCH (default Sources) changes, stops its whole process group
// (SIGTERM, then SIGKILL after 5 s) and starts it again only once the old
// group is gone, so the port is free. Every output line is prefixed.
let recipe = Recipe("dev-server", "keep a server up, restarting its whole process group when its sources change; output prefixed") {
    let server = Recipe.arguments.isEmpty ? ["swift", "run"] : Recipe.arguments
    let watched = (Recipe.environment("WATCH") ?? "Sources").split(separator: ":").map(String.init)
    FileWatcher.watch(watched)
        .batched(.milliseconds(100))
        .startingNow()
        .run(server, onBusy: .restart, options: RunOptions(outputPrefix: "[server] "))
}
