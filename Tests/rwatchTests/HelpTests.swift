import Testing
@testable import rwatch

@Suite struct HelpTests {
    @Test func helpNamesTheTool() {
        #expect(RWatch.helpMessage().contains("rwatch"))
    }
}
