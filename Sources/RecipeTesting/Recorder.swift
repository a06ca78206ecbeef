import RecipeKit

/// What a `RecipeTest`'s recipe did, as it happens: the world's output and
/// its commands write here, on the virtual clock. It is also the world's
/// `RecipeOutput`.
final class Recorder: RecipeOutput, Sendable {
    struct Record {
        var runs: [RecordedRun] = []
        var lines: [RecordedLine] = []
        var notifications: [RecordedNotification] = []
        var bells: [Duration] = []
    }

    private let scheduler: any Scheduler
    private let record = Locked(Record())

    init(scheduler: any Scheduler) {
        self.scheduler = scheduler
    }

    /// What was recorded so far.
    var snapshot: Record { record.withLock { $0 } }

    // MARK: Runs

    /// A run of `words` started now with `environment`, for `paths`: its index.
    func started(_ words: [String], environment: [String: String], paths: [FilePath]) -> Int {
        let now = scheduler.now
        return record.withLock { record in
            record.runs.append(RecordedRun(words: words, environment: environment, start: now, end: nil, status: nil, signals: [],
                                           changedPaths: paths))
            return record.runs.count - 1
        }
    }

    /// Run `index` was sent `number` now.
    func signalled(_ index: Int, _ number: Int32) {
        let now = scheduler.now
        record.withLock { $0.runs[index].signals.append(SentSignal(number: number, at: now)) }
    }

    /// Run `index` ended now with `status`.
    func ended(_ index: Int, _ status: ExitStatus) {
        let now = scheduler.now
        record.withLock { record in
            guard record.runs[index].end == nil else { return }
            record.runs[index].end = now
            record.runs[index].status = status
        }
    }

    // MARK: RecipeOutput

    private func line(_ kind: RecordedLine.Kind, _ text: String) {
        let now = scheduler.now
        record.withLock { $0.lines.append(RecordedLine(kind: kind, text: text, at: now)) }
    }

    func output(_ line: String, prefix: String, color: Terminal.Color?, toStandardError: Bool) {
        self.line(toStandardError ? .errorOutput : .output, prefix + line)
    }

    func status(_ text: String, color: Terminal.Color?) { line(.status, text) }

    func error(_ text: String) { line(.error, text) }

    func warning(_ text: String) { line(.warning, text) }

    func bell() {
        let now = scheduler.now
        record.withLock { $0.bells.append(now) }
    }

    func clear(_ clearing: ScreenClearing) {}

    func announce(_ message: String) { notified(message) }

    func notify(_ message: String) { notified(message) }

    private func notified(_ message: String) {
        let now = scheduler.now
        record.withLock { $0.notifications.append(RecordedNotification(message: message, at: now)) }
    }
}
