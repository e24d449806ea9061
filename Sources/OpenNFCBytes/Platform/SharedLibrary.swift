internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// A C library opened at run time with `dlopen(3)`, so the package builds without its headers and a machine without
/// it gets a clear error instead of a link failure: the one loader behind libcrypto (OpenNFCCrypto), pcsc-lite
/// (OpenNFCPCSC) and libmosquitto (OpenNFCMQTT). The handle stays open for the life of the process; each caller turns
/// a ``LoadFailure`` or a missing symbol into its own error, naming the package to install.
package struct SharedLibrary: @unchecked Sendable {
    /// The name or path that loaded.
    package let path: String
    private let handle: UnsafeMutableRawPointer

    /// Why no candidate loaded: the last one tried and the dynamic loader's reason.
    package struct LoadFailure: Error, Sendable, CustomStringConvertible {
        package let path: String
        package let reason: String
        package var description: String { "cannot load \(path) (\(reason))" }
    }

    /// The first of `candidates` that loads (`RTLD_NOW`: every symbol resolved at once).
    package static func open(firstOf candidates: [String]) -> Result<SharedLibrary, LoadFailure> {
        var failure = LoadFailure(path: candidates.last ?? "", reason: "no library name given")
        for path in candidates {
            if let handle = dlopen(path, RTLD_NOW) { return .success(SharedLibrary(path: path, handle: handle)) }
            failure = LoadFailure(path: path, reason: dlerror().map { String(cString: $0) } ?? "unknown reason")
        }
        return .failure(failure)
    }

    /// The address of the symbol `name` (a function or a variable), or nil when the library has none.
    package func address(of name: String) -> UnsafeMutableRawPointer? { dlsym(handle, name) }

    /// The function `name` typed as `type` (a `@convention(c)` function type matching its C prototype), or nil when
    /// the library has no such symbol.
    package func function<T>(_ name: String, as type: T.Type) -> T? {
        address(of: name).map { unsafeBitCast($0, to: type) }
    }
}

/// A binding made once per process on first use. A failure is remembered and rethrown, so a missing library is
/// looked for once, unless the binding is made with `remembersFailure: false` (then every use tries again).
package final class OncePerProcess<Value: Sendable, Failure: Error & Sendable>: Sendable {
    private let cached = Mutex<Result<Value, Failure>?>(nil)
    private let remembersFailure: Bool

    package init(remembersFailure: Bool = true) { self.remembersFailure = remembersFailure }

    /// The value, made by `make` the first time (under a lock, so it is made at most once).
    package func get(_ make: () throws(Failure) -> Value) throws(Failure) -> Value {
        let result: Result<Value, Failure> = cached.withLock { cached in
            if let cached { return cached }
            let r: Result<Value, Failure>
            do throws(Failure) { r = .success(try make()) } catch { r = .failure(error) }
            if case .success = r { cached = r } else if remembersFailure { cached = r }
            return r
        }
        return try result.get()
    }
}
