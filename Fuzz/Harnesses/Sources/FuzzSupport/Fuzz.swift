import CFuzzer
#if canImport(Glibc)
import Glibc
#endif

/// Runs libFuzzer with `body` as the target, the command line passed on
/// (`-max_total_time=`, corpus folders, …), then exits with its status.
/// `body` gets each input's bytes; it traps (`fatalError`, `precondition`)
/// when a property of the parser does not hold, which libFuzzer reports as
/// a crash and saves the input.
public func fuzz(_ body: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32) -> Never {
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    exit(LLVMFuzzerRunDriver(&argc, &argv, body))
}

/// The input as an array of bytes.
public func bytes(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
    guard let data, size > 0 else { return [] }
    return Array(UnsafeBufferPointer(start: data, count: size))
}

/// Fails the run with `message` when `condition` is false (in release
/// builds too, unlike `assert`).
public func check(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String) {
    if !condition() { fatalError(message()) }
}
