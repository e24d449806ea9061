internal import Synchronization

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// Where challenges and nonces come from. Inject ``SeededRandomSource`` in tests (the same seed gives the same
/// bytes, so transcripts are reproducible) and ``SystemRandomSource`` everywhere else.
public protocol RandomSource: AnyObject, Sendable {
    /// `count` random bytes.
    func bytes(_ count: Int) -> [UInt8]
}

/// The operating system's generator: `/dev/urandom` on Linux, `arc4random_buf` on Apple platforms.
package final class SystemRandomSource: RandomSource {
    package init() {}

    package func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        #if canImport(Darwin)
            out.withUnsafeMutableBytes { arc4random_buf($0.baseAddress, $0.count) }
        #else
            // /dev/urandom (random(4)): never blocks once the kernel's pool is initialised at boot.
            let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
            precondition(fd >= 0, "/dev/urandom cannot be opened (errno \(errno))")
            defer { close(fd) }
            var filled = 0
            while filled < count {
                let n = out.withUnsafeMutableBytes { read(fd, $0.baseAddress! + filled, count - filled) }
                if n > 0 {
                    filled += n
                } else {
                    precondition(errno == EINTR, "/dev/urandom read failed (errno \(errno))")
                }
            }
        #endif
        return out
    }
}

/// A deterministic generator for tests: SplitMix64 (Steele, Lea, Flood, "Fast splittable pseudorandom number
/// generators", OOPSLA 2014) from a seed. Not for keys: it is predictable by design.
package final class SeededRandomSource: RandomSource {
    private let state: Mutex<UInt64>

    package init(seed: UInt64) { state = Mutex(seed) }

    package func bytes(_ count: Int) -> [UInt8] {
        state.withLock { s in
            var out: [UInt8] = []
            out.reserveCapacity(count + 8)
            while out.count < count {
                s &+= 0x9E37_79B9_7F4A_7C15
                var z = s
                z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
                z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
                z ^= z >> 31
                for i in 0..<8 { out.append(UInt8(truncatingIfNeeded: z >> (8 * UInt64(i)))) }
            }
            return Array(out.prefix(count))
        }
    }
}
