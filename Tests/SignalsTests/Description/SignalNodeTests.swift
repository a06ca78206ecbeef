import Testing
@testable import Signals

/// The descriptions operators attach when a chain is built (`SignalNode`):
/// what `rwatch graph` draws.
@Suite struct SignalNodeTests {
    /// The labels from `node` up its first upstream, source first.
    private func chain(_ node: SignalNode?) -> [String] {
        var labels: [String] = []
        var current = node
        while let node = current {
            labels.insert(node.label, at: 0)
            current = node.upstreams.first
        }
        return labels
    }

    @Test func aChainOfOperatorsDescribesEveryStageWithItsParameters() {
        let scheduler = TestScheduler()
        let signal = SignalNode.recording {
            Signal<Int>.never().described("Source", ["\"a\""])
                .map { $0 * 2 }
                .filter { $0 > 0 }
                .debounce(.milliseconds(100), scheduler: scheduler)
                .throttle(.seconds(10), latest: true, scheduler: scheduler)
                .debounce(.milliseconds(250), maxWait: .seconds(2), scheduler: scheduler)
                .take(3)
        }
        #expect(chain(signal.node) == [
            "Source(\"a\")", "map", "filter", "debounce(100 ms)", "throttle(10 s, latest)",
            "debounce(250 ms, maxWait: 2 s)", "take(3)",
        ])
    }

    @Test func aFilterFusedWithTheMapBeforeItIsStillAStageOfItsOwn() {
        let subject = PublishSubject<Int>()
        let signal = SignalNode.recording { subject.asSignal().described("Subject").map { $0 + 1 }.filter { $0 > 1 } }
        #expect(chain(signal.node) == ["Subject", "map", "filter"])
    }

    @Test func mergeShowsEachUpstreamInOrder() {
        let merged = SignalNode.recording {
            Signal.merge([Signal<Int>.never().described("A"), Signal<Int>.never().described("B").map { $0 }, Signal<Int>.never()])
        }
        #expect(merged.node?.name == "merge")
        #expect(merged.node?.upstreams.map(\.label) == ["A", "map", "Signal"])
        #expect(merged.node?.upstreams[1].upstreams.map(\.label) == ["B"])
    }

    @Test func zipCombineLatestAndTakeUntilReadTwoUpstreams() {
        let nodes = SignalNode.recording {
            let a = Signal<Int>.never().described("A")
            let b = Signal<String>.never().described("B")
            return [Signal.zip(a, b).node, a.combineLatest(b).node, a.takeUntil(b).node]
        }
        #expect(nodes.map { $0?.name } == ["zip", "combineLatest", "takeUntil"])
        #expect(nodes.map { $0?.upstreams.map(\.label) } == [["A", "B"], ["A", "B"], ["A", "B"]])
    }

    @Test func aChainOverAnUndescribedSourceStaysUndescribed() {
        let subject = PublishSubject<Int>()
        let signal = SignalNode.recording { subject.asSignal().map { $0 }.filter { $0 > 0 }.take(2) }
        #expect(signal.node == nil)
        #expect(SignalNode.recording { Signal.merge([signal, signal]) }.node == nil)
    }

    @Test func aDescribedSignalSendsWhatItsProducerSends() {
        let values = Locked<[Int]>([])
        let signal = SignalNode.recording { Signal.from([1, 2, 3]).described("Numbers").map { $0 * 2 }.filter { $0 != 4 } }
        #expect(signal.node?.label == "filter")
        signal.subscribe(onNext: { value in values.withLock { $0.append(value) } })
        #expect(values.withLock { $0 } == [2, 6])
    }

    @Test func aRecordedChainExtendedLaterGetsNoNewNode() {
        let recorded = SignalNode.recording { Signal<Int>.never().described("A") }
        // Not inside `recording` (unless another test records meanwhile:
        // then a node, but still this chain's).
        let later = recorded.map { $0 }
        #expect(later.node == nil || later.node?.upstreams.first === recorded.node)
    }

    @Test func quotedTextStaysOneSwiftStringLiteral() {
        #expect(SignalNode.quoted("a\"b\\c\nd\te\u{1B}") == #""a\"b\\c\nd\te\u{1B}""#)
        #expect(SignalNode.list(["swift", "build"]) == #"["swift", "build"]"#)
        #expect(SignalNode.bare("**/*.swift") == "**/*.swift")
        #expect(SignalNode.bare("a\nb") == #""a\nb""#)
    }

    @Test func durationsShowInTheLargestWholeUnit() {
        #expect(Duration.milliseconds(100).label == "100 ms")
        #expect(Duration.seconds(10).label == "10 s")
        #expect(Duration.seconds(120).label == "2 min")
        #expect(Duration.microseconds(250).label == "250 µs")
        #expect(Duration.milliseconds(1500).label == "1500 ms")
        #expect(Duration.zero.label == "0 s")
    }
}
