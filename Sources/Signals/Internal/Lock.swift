#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A pthread mutex whose storage lives in the same allocation as the state it
/// guards (a `ManagedBuffer` tail element), as swift-nio's `NIOLockedValueBox`.
/// A struct around that one reference: copies share the lock and the state,
/// and making one costs a single allocation.
///
/// `Synchronization.Mutex` trips false access-race reports under TSan on this
/// toolchain; a plain pthread mutex is clean. Never call user code or a
/// downstream observer from inside `withLock`.
@usableFromInline
package struct Locked<State>: @unchecked Sendable {
    // Safety: `state` is only read or written between `pthread_mutex_lock` and
    // `pthread_mutex_unlock` on `storage`'s mutex.
    @usableFromInline let storage: LockStorage<State>

    @inlinable
    package init(_ state: State) {
        storage = LockStorage.make(state)
    }

    @inlinable @inline(__always)
    package func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try storage.withLock(body)
    }
}

/// A lock with no state of its own, for code that guards several fields.
@usableFromInline
package typealias Lock = Locked<Void>

extension Locked where State == Void {
    @inlinable
    package init() { self.init(()) }

    @inlinable @inline(__always)
    package func withLock<R>(_ body: () throws -> R) rethrows -> R {
        try storage.withMutex(body)
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
            pthread_mutex_init(mutex, nil)
        }
        return storage
    }

    @inlinable @inline(__always)
    func withLock<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try withUnsafeMutablePointers { state, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
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
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body()
        }
    }

    // ManagedBuffer destroys the header (the state) itself; the mutex is ours.
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
