@testable import rwatch
import Testing

/// The width help is wrapped to, for each `COLUMNS` and standard output.
@Suite struct HelpWidthTests {
    @Test func helpIntoAFileOrAPipeIsNotWrapped() {
        #expect(HelpWidth.columns(environment: nil, output: .notTerminal) == HelpWidth.unwrapped)
        #expect(HelpWidth.columns(environment: "", output: .notTerminal) == HelpWidth.unwrapped)
        #expect(HelpWidth.columns(environment: "wide", output: .notTerminal) == HelpWidth.unwrapped)
    }

    @Test func aTerminalGivesItsWidthOrArgumentParsers80() {
        #expect(HelpWidth.columns(environment: nil, output: .terminal(columns: 132)) == 132)
        #expect(HelpWidth.columns(environment: nil, output: .terminal(columns: 0)) == 80)
    }

    @Test func columnsWinsOnATerminalAndOffOne() {
        #expect(HelpWidth.columns(environment: "100", output: .terminal(columns: 132)) == 100)
        #expect(HelpWidth.columns(environment: "100", output: .notTerminal) == 100)
        #expect(HelpWidth.columns(environment: "0", output: .terminal(columns: 132)) == 132)
    }

    /// ArgumentParser indents option help by 26 columns and asserts there
    /// is room after them.
    @Test func aWidthTooNarrowForArgumentParserIsWidened() {
        #expect(HelpWidth.columns(environment: "10", output: .notTerminal) == HelpWidth.narrowest)
        #expect(HelpWidth.columns(environment: nil, output: .terminal(columns: 20)) == HelpWidth.narrowest)
    }
}
