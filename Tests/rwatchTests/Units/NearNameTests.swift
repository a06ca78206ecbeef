@testable import rwatch
import Testing

/// The near name a misspelt `--long` option is told, and the line it is told in.
@Suite struct NearNameTests {
    let watchLike = ["--watch", "--watch-non-recursive", "--debounce", "--once", "--poll", "--no-vcs-ignore", "--no-vcs-settle", "--help", "--version"]

    @Test(arguments: [
        ("debouce", "debounce", 1), ("jsno", "json", 1), ("gerp", "grep", 1),
        ("kitten", "sitting", 3), ("", "abc", 3), ("ca", "abc", 3), ("same", "same", 0),
    ])
    func distanceCountsASwapOfNeighboursAsOneEdit(a: String, b: String, expected: Int) {
        #expect(NearName.distance(a, b) == expected)
        #expect(NearName.distance(b, a) == expected)
    }

    @Test(arguments: [
        ("--debouce", "--debounce"), ("--onse", "--once"), ("--verison", "--version"),
        ("--hlep", "--help"), ("--deboucne", "--debounce"), ("--Once", "--once"),
    ])
    func aNameOneOrTwoEditsFromAKnownOneMeansIt(typed: String, meant: String) {
        #expect(NearName.nearest(to: typed, among: watchLike) == meant)
    }

    @Test func aNameThatStartsKnownOnesMeansTheShortestWhenTheOthersExtendIt() {
        #expect(NearName.nearest(to: "--debo", among: watchLike) == "--debounce")
        #expect(NearName.nearest(to: "--wat", among: watchLike) == "--watch")
        #expect(NearName.nearest(to: "--no-vcs", among: watchLike) == nil)
        #expect(NearName.nearest(to: "--no", among: watchLike) == nil)
    }

    @Test func nothingIsSuggestedWhenNothingIsNear() {
        #expect(NearName.nearest(to: "--xyzzy", among: watchLike) == nil)
        #expect(NearName.nearest(to: "--foo", among: ["--json", "--log"]) == nil)
        #expect(NearName.nearest(to: "--poll-interval", among: watchLike) == nil)
        #expect(NearName.nearest(to: "-x", among: watchLike + ["-x1"]) == nil)
        #expect(NearName.nearest(to: "--", among: watchLike) == nil)
    }

    @Test func onATieTheFirstDeclaredWins() {
        #expect(NearName.nearest(to: "--lag", among: ["--log", "--bag"]) == "--log")
    }

    @Test func theLineNamesTheSuggestionOrJustTheOption() {
        #expect(UnknownOption("--debouce", among: watchLike).description == "unknown option '--debouce'; did you mean '--debounce'?")
        #expect(UnknownOption("--xyzzy", among: watchLike).description == "unknown option '--xyzzy'")
        #expect(UnknownOption("--debouce", of: nil).description == "unknown option '--debouce'")
    }

    @Test func argumentParsersUnknownOptionMessageGivesTheName() {
        #expect(UnknownOption.name(inParserMessage: "Unknown option '--jsno'. Did you mean '--json'?") == "--jsno")
        #expect(UnknownOption.name(inParserMessage: "Unknown option '--foo'") == "--foo")
        #expect(UnknownOption.name(inParserMessage: "unknown option '-x'") == "-x")
        #expect(UnknownOption.name(inParserMessage: "Missing value for '--grep <regex>'") == nil)
        #expect(UnknownOption.name(inParserMessage: "Unknown option ''") == nil)
    }
}
