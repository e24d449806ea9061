/// One coverage-guided fuzz target: a parser (or a procedure, or a virtual chip) fed outside bytes, checking its
/// invariants (docs/RELIABILITY.md, "Fuzzing").
///
/// `run` never throws: a rejected input is the parser's business (it must say what and where); a broken invariant
/// traps through ``fuzzRequire(_:_:)`` so that libFuzzer records the input. The same bodies run under libFuzzer
/// (`scripts/fuzz`, the `opennfc-fuzz` product built with `-sanitize=fuzzer,address -DOPENNFC_FUZZ`) and in the ordinary
/// suite, which replays every committed corpus file and every past finding (`Tests/OpenNFCFuzzTests`).
package struct FuzzTarget: Sendable {
    /// The name `scripts/fuzz` and the corpus folder `Fuzz/Corpus/<name>` use.
    package let name: String
    /// One line for `scripts/fuzz --list`.
    package let summary: String
    /// Feeds one input through the target.
    package let run: @Sendable ([UInt8]) -> Void
    /// The seed inputs, produced by the project's own encoders and virtual chips (never copied from elsewhere).
    package let seeds: @Sendable () -> [[UInt8]]

    package init(
        _ name: String, _ summary: String, seeds: @escaping @Sendable () -> [[UInt8]],
        run: @escaping @Sendable ([UInt8]) -> Void
    ) {
        self.name = name
        self.summary = summary
        self.run = run
        self.seeds = seeds
    }
}

/// The registry of every fuzz target, in `scripts/fuzz --list` order.
package enum FuzzTargets {
    package static let all: [FuzzTarget] = [
        NDEFFuzz.target,
        ATRFuzz.target,
        PropertyListFuzz.target,
        TagFileFuzz.target,
        TextFormatsFuzz.target,
        ReaderFuzz.target,
        CardFuzz.target,
        PCSCFuzz.target,
        VPCDFuzz.target,
        DoctorFuzz.target,
        CLIFuzz.target,
        FieldFuzz.target,
        TranscriptFuzz.target,
        PN532Fuzz.target,
    ]

    package static func named(_ name: String) -> FuzzTarget? { all.first { $0.name == name } }
}

/// Traps with `message` when `condition` does not hold: an invariant of a fuzz target is broken, which libFuzzer
/// reports as a crash and saves the input for.
@inline(__always)
package func fuzzRequire(
    _ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String, file: StaticString = #fileID,
    line: UInt = #line
) {
    if !condition() { fatalError("fuzz invariant broken: \(message())", file: file, line: line) }
}

/// Reads a fuzz input front to back: selector bytes, lengths and chunks, never past the end (then zeros / empty).
package struct FuzzInput {
    package var bytes: [UInt8]
    package var offset = 0

    package init(_ bytes: [UInt8]) { self.bytes = bytes }

    package var isAtEnd: Bool { offset >= bytes.count }
    package var remaining: Int { max(0, bytes.count - offset) }

    /// The next byte, 0 once the input is used up.
    package mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    /// The next `n` bytes (fewer at the end).
    package mutating func take(_ n: Int) -> [UInt8] {
        let end = min(bytes.count, offset + max(0, n))
        defer { offset = end }
        return offset < end ? Array(bytes[offset..<end]) : []
    }

    /// Everything not read yet.
    package mutating func rest() -> [UInt8] { take(remaining) }
}
