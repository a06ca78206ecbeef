import Testing
@testable import WatchSources

/// A new file found by polling is held for the save window from when it
/// was first found, however many passes fit in it (a save through a
/// temporary file slower than a 25 ms interval spans several).
@Suite struct NewFileHoldTests {
    let temporary = Array("/t/app.c.tmp1".utf8)
    let other = Array("/t/b.c".utf8)

    @Test func aFileStillThereIsHeldUntilTheWindowHasPassedSinceItWasFound() {
        var hold = NewFileHold()
        #expect(hold.settle(released: [], new: [temporary], now: 10.0, window: 0.2).isEmpty)
        #expect(hold.contains(temporary))
        // Three passes 25 ms apart: still inside the window.
        for pass in 1...3 {
            #expect(hold.settle(released: [temporary], new: [], now: 10.0 + 0.025 * Double(pass), window: 0.2).isEmpty)
            #expect(hold.contains(temporary))
        }
        // Past it: announced.
        #expect(hold.settle(released: [temporary], new: [other], now: 10.21, window: 0.2) == [temporary])
        #expect(!hold.contains(temporary) && hold.contains(other))
    }

    @Test func aFileGoneOrRenamedAwayIsNoLongerHeld() {
        var hold = NewFileHold()
        _ = hold.settle(released: [], new: [temporary, other], now: 1, window: 0.2)
        // The pass found the temporary renamed over the real file: not released.
        #expect(hold.settle(released: [other], new: [], now: 1.05, window: 0.2).isEmpty)
        #expect(!hold.contains(temporary) && hold.contains(other))
        hold.remove(other)
        #expect(hold.isEmpty)
    }
}
