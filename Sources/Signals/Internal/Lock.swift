#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A lock box: a pthread mutex and the state it guards, in one allocation
/// (a `ManagedBuffer` whose header is the state and whose tail element is
/// the mutex), as swift-nio's `NIOLockedValueBox`. A struct around that
/// one reference: copies share the lock and the state.
///
/// The state is reached only through `withLock`, so the box is `Sendable`
/// exactly when its state is: a box cannot carry a non-`Sendable` value
/// across threads (that takes a type of its own, saying why it is safe).
/// In debug builds the mutex checks its use (`PTHREAD_MUTEX_ERRORCHECK`)
/// and every pthread call's result is checked, so a lock taken twice on
/// one thread, or released by a thread that does not hold it, traps at
/// once instead of hanging.
///
/// `Synchronization.Mutex` trips false access-race reports under TSan on this
/// toolchain; a plain pthread mutex is clean. Never call user code or a
/// downstream observer from inside `withLock`.
@usableFromInline
package struct Locked<State> {
    @usableFromInline let storage: LockStorage<State>

    @inlinable
    package init(_ state: State) {
        storage = LockStorage.make(state)
    }

    /// Runs `body` with the state, the lock held.
    @inlinable @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try storage.withLock(body)
    }
}

// Safety: the state is only read or written between `pthread_mutex_lock`
// and `pthread_mutex_unlock` on the storage's mutex, so sharing the box is
// as safe as sending the state itself.
extension Locked: @unchecked Sendable where State: Sendable {}

/// A lock with no state of its own, for code whose guarded fields have
/// their own reason to live apart (`SerialQueue`'s queue beside its atomic).
@usableFromInline
package typealias Lock = Locked<Void>

extension Locked where State == Void {
    @inlinable
    package init() { self.init(()) }

    @inlinable @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try storage.withMutex(body)
    }

    /// Runs `body` with the lock held if no thread holds it now; nil
    /// (and `body` not run) if one does: for work that may go elsewhere
    /// rather than wait.
    @inlinable
    package func withLockIfAvailable<R>(_ body: () throws -> R) rethrows -> R? {
        try storage.withMutexIfAvailable(body)
    }
}

@usableFromInline
final class LockStorage<State>: ManagedBuffer<State, pthread_mutex_t> {
    @inlinable
    static func make(_ state: State) -> LockStorage<State> {
        let buffer = Self.create(minimumCapacity: 1) { _ in state }
        let storage = unsafeDowncast(buffer, to: LockStorage<State>.self)
        storage.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            var attributes = pthread_mutexattr_t()
            pthread_mutexattr_init(&attributes)
            debugOnly { pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ERRORCHECK)) }
            checked(pthread_mutex_init(mutex, &attributes), "pthread_mutex_init")
            pthread_mutexattr_destroy(&attributes)
        }
        return storage
    }

    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { state, mutex in
            Self.checked(pthread_mutex_lock(mutex), "pthread_mutex_lock")
            defer { Self.checked(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
            return try body(&state.pointee)
        }
    }

    /// Holds the mutex without touching the state. For `Lock` (State ==
    /// Void) this matters: a zero-sized header sits at the mutex's address,
    /// and TSan reports the inout access `&state.pointee` as a Swift access
    /// race against other threads' use of the mutex.
    @inlinable @inline(__always)
    func withMutex<R>(_ body: () throws -> R) rethrows -> R {
        try withUnsafeMutablePointerToElements { mutex in
            Self.checked(pthread_mutex_lock(mutex), "pthread_mutex_lock")
            defer { Self.checked(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
            return try body()
        }
    }

    /// `withMutex` if the mutex is free now; nil if another thread holds it.
    @inlinable
    func withMutexIfAvailable<R>(_ body: () throws -> R) rethrows -> R? {
        try withUnsafeMutablePointerToElements { mutex in
            let result = pthread_mutex_trylock(mutex)
            guard result == 0 else {
                Self.checked(result == EBUSY ? 0 : result, "pthread_mutex_trylock")
                return nil
            }
            defer { Self.checked(pthread_mutex_unlock(mutex), "pthread_mutex_unlock") }
            return try body()
        }
    }

    /// Traps in debug builds when a pthread call failed; nothing in release.
    @inlinable @inline(__always)
    static func checked(_ result: Int32, _ call: StaticString) {
        assert(result == 0, "\(call) failed: error \(result)")
    }

    /// Runs `body` in debug builds only (where `assert` runs).
    @inlinable @inline(__always)
    static func debugOnly(_ body: () -> Void) {
        assert({ body(); return true }())
    }

    // ManagedBuffer destroys the header (the state) itself; the mutex is ours.
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            Self.checked(pthread_mutex_destroy(mutex), "pthread_mutex_destroy")
            mutex.deinitialize(count: 1)
        }
    }
}
