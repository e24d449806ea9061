import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCBytes
import OpenNFCNDEF

/// `opennfc-bench ndef`: decode and encode rates of the NDEF codec on a fixed corpus, beside ndeflib's on the same
/// corpus when `python3` can `import ndef` (PyPI package `ndeflib`).
///
/// Corpus (anyone can rebuild it): 10,000 messages; message i = URI record `https://example.com/item/<i>` followed
/// by Text record `Item <i>` in `en`, encoded without chunking.
///
/// Figures (thread CPU time of the best of several rounds, each over the whole corpus; CPU time because the
/// machines this runs on are shared):
/// - `decode_*`: `NDEFMessage(decoding:)` on each message's bytes (records as slices of the input, no copies).
/// - `encode_*`: `NDEFMessage.encoded()` of each decoded message.
/// - `typed.decode_*`: from the bytes to the URI and Text records' strings (what ndeflib's `message_decoder` does),
///   `NDEFMessage.decoded(bytes, as: NDEFURIRecord.self, NDEFTextRecord.self)`, every strict check made;
///   `typed.decode_via_message_*` decodes the `NDEFMessage` first, then `NDEFURIRecord(decoding: records[0])` and
///   `NDEFTextRecord(decoding: records[1])`.
/// - `typed.encode_*`: from the two strings to the message's bytes through the typed records,
///   `NDEFMessage.encoded(NDEFURIRecord(uri:), NDEFTextRecord(text:language:))` (what ndeflib's `message_encoder`
///   does with its typed records); `typed.encode_via_records_*` builds the two `NDEFRecord`s and an `NDEFMessage`
///   first.
/// - `NFCNDEFMessage.decode_*`: the app-facing path through Core NFC's types and Foundation:
///   `NFCNDEFMessage(data: Data(bytes))`, then `records[0].wellKnownTypeURIPayload()` (a `URL`) and
///   `records[1].wellKnownTypeTextPayload()` (a `String` and a `Locale`).
/// - `NFCNDEFMessage.encode_*`: `NFCNDEFPayload.wellKnownTypeURIPayload(url:)` and
///   `wellKnownTypeTextPayload(string:locale:)` into an `NFCNDEFMessage(records:)`, then its bytes as a session
///   writes them (`VirtualPhone.encode`).
/// - `NFCNDEFMessage.foundation_only_decode_*`: what Foundation alone costs the decode loop: `URL(string:)` of each
///   message's URI string (made beforehand) and its `absoluteString`, and `Locale(identifier: "en")`; no NDEF at all.
///   `speedup_vs_ndeflib.NFCNDEFMessage_decode_foundation_ceiling` is its ratio to ndeflib: the most the
///   `NFCNDEFMessage` decode path can reach while its accessors return Foundation's `URL` and `Locale`.
/// - `NFCNDEFMessage.objects_only_decode_*` and `objects_only_encode_*`: the objects Core NFC's types impose, made
///   and freed with nothing else done (the floor of the path besides Foundation; docs/PERFORMANCE.md). Decode: the
///   input `Data`, the URI's `String` (what `URL(string:)` takes), two `NFCNDEFPayload`s with empty fields, the
///   records array and the `NFCNDEFMessage`. Encode: two `[UInt8]` of each record's size (the bytes a payload must
///   hold), two payloads, the records array, the message and the output `[UInt8]`. Their `_ceiling` ratios in
///   `speedup_vs_ndeflib` are the most the path could reach if everything but these allocations cost nothing.
/// - `ndeflib`: `list(ndef.message_decoder(octets))` and `b"".join(ndef.message_encoder(records))` per message.
///   When it cannot be measured the `ndeflib` field says why (no python3, no ndeflib, python3 failed or exited
///   early, unreadable output); SIGPIPE is ignored, so python3 exiting early never kills the benchmark.
///
/// Options: `--rounds <n>` timed rounds per figure (default 15), `--no-ndeflib` to skip Python.
let ndefBenchmark = BenchMode(
    name: "ndef",
    summary: "NDEF decode/encode rates on the fixed corpus, with ndeflib's beside them.",
    run: runNDEFBenchmark
)

struct BenchError: Error, CustomStringConvertible {
    var description: String
}

/// The fixed corpus: message i = URI `https://example.com/item/<i>` + Text `Item <i>` (en).
func ndefBenchCorpus(count: Int = 10_000) throws -> [[UInt8]] {
    var out: [[UInt8]] = []
    out.reserveCapacity(count)
    for i in 0..<count {
        let message = NDEFMessage(records: [
            try NDEFURIRecord(uri: "https://example.com/item/\(i)").record(),
            try NDEFTextRecord(text: "Item \(i)", language: "en").record(),
        ])
        out.append(message.encoded())
    }
    return out
}

/// Best-of-`rounds` CPU seconds for one pass of `body` over the corpus.
func bestTime(rounds: Int, _ body: () throws -> Int) rethrows -> (seconds: Double, check: Int) {
    var best = Double.infinity
    var check = 0
    _ = try body()  // warm-up
    for _ in 0..<rounds {
        let start = threadCPUSeconds()
        check = try body()
        best = min(best, threadCPUSeconds() - start)
    }
    return (best, check)
}

func rates(_ seconds: Double, messages: Int, bytes: Int, prefix: String) -> [(String, JSONValue)] {
    [
        ("\(prefix)_msgs_per_s", .int(Int((Double(messages) / seconds).rounded()))),
        ("\(prefix)_mb_per_s", .double((Double(bytes) / seconds / 1e6 * 100).rounded() / 100)),
    ]
}

func runNDEFBenchmark(_ args: [String]) throws -> JSONValue {
    var rounds = 15
    var withNDEFLib = true
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--rounds":
            guard i + 1 < args.count, let n = Int(args[i + 1]), n > 0 else {
                throw BenchError(description: "--rounds takes a positive number")
            }
            rounds = n
            i += 1
        case "--no-ndeflib": withNDEFLib = false
        default: throw BenchError(description: "unknown option '\(args[i])' (ndef takes --rounds <n>, --no-ndeflib)")
        }
        i += 1
    }

    let corpus = try ndefBenchCorpus()
    let bytes = corpus.reduce(0) { $0 + $1.count }
    let n = corpus.count

    // Raw codec.
    let decoded = try corpus.map { try NDEFMessage(decoding: $0) }
    let decode = try bestTime(rounds: rounds) {
        var c = 0
        for m in corpus { c &+= try NDEFMessage(decoding: m).records.count }
        return c
    }
    let encode = bestTime(rounds: rounds) {
        var c = 0
        for m in decoded { c &+= m.encoded().count }
        return c
    }
    guard decode.check == 2 * n, encode.check == bytes else { throw BenchError(description: "round trip mismatch") }

    // Typed: records to and from strings.
    let typedDecode = try bestTime(rounds: rounds) {
        var c = 0
        for m in corpus {
            let (uri, text) = try NDEFMessage.decoded(m, as: NDEFURIRecord.self, NDEFTextRecord.self)
            c &+= uri.uri.utf8.count &+ text.text.utf8.count
        }
        return c
    }
    let typedDecodeViaMessage = try bestTime(rounds: rounds) {
        var c = 0
        for m in corpus {
            let message = try NDEFMessage(decoding: m)
            c &+= try NDEFURIRecord(decoding: message.records[0]).uri.utf8.count
            c &+= try NDEFTextRecord(decoding: message.records[1]).text.utf8.count
        }
        return c
    }
    let strings = (0..<n).map { ("https://example.com/item/\($0)", "Item \($0)") }
    let typedEncode = try bestTime(rounds: rounds) {
        var c = 0
        for (uri, text) in strings {
            c &+= try NDEFMessage.encoded(NDEFURIRecord(uri: uri), NDEFTextRecord(text: text, language: "en")).count
        }
        return c
    }
    let typedEncodeViaRecords = try bestTime(rounds: rounds) {
        var c = 0
        for (uri, text) in strings {
            let message = NDEFMessage(records: [
                try NDEFURIRecord(uri: uri).record(), try NDEFTextRecord(text: text, language: "en").record(),
            ])
            c &+= message.encoded().count
        }
        return c
    }
    let urls = strings.map { URL(string: $0.0)! }
    let english = Locale(identifier: "en")
    let coreNFCDecode = try bestTime(rounds: rounds) {
        var c = 0
        for m in corpus {
            guard let message = NFCNDEFMessage(data: Data(m)), message.records.count == 2,
                let url = message.records[0].wellKnownTypeURIPayload(),
                case (let text?, _) = message.records[1].wellKnownTypeTextPayload()
            else { throw BenchError(description: "NFCNDEFMessage could not decode a corpus message") }
            c &+= url.absoluteString.utf8.count &+ text.utf8.count
        }
        return c
    }
    let coreNFCEncode = try bestTime(rounds: rounds) {
        var c = 0
        for (k, url) in urls.enumerated() {
            guard let uri = NFCNDEFPayload.wellKnownTypeURIPayload(url: url),
                let text = NFCNDEFPayload.wellKnownTypeTextPayload(string: strings[k].1, locale: english)
            else { throw BenchError(description: "NFCNDEFPayload could not build a corpus record") }
            c &+= try VirtualPhone.encode(NFCNDEFMessage(records: [uri, text])).count
        }
        return c
    }
    // Foundation's share of the decode loop alone: the two constructors the accessors must call.
    let foundationOnly = try bestTime(rounds: rounds) {
        var c = 0
        for (uri, text) in strings {
            guard let url = URL(string: uri) else { throw BenchError(description: "URL(string:) rejected \(uri)") }
            let locale = Locale(identifier: "en")
            withExtendedLifetime(locale) {}
            c &+= url.absoluteString.utf8.count &+ text.utf8.count
        }
        return c
    }
    // The objects the API's types impose, made and freed with nothing in them (see the doc comment).
    let uriLengths = strings.map { Array($0.0.utf8).count }
    let recordLengths = try corpus.map { m in try NDEFMessage(decoding: m).records.map(\.payload.count) }
    let floorDecode = bestTime(rounds: rounds) {
        var c = 0
        for (k, m) in corpus.enumerated() {
            let data = Data(m)
            let uri = String(unsafeUninitializedCapacity: uriLengths[k]) { buffer in
                buffer.initialize(repeating: UInt8(ascii: "a"))
                return buffer.count
            }
            let message = NFCNDEFMessage(records: [emptyPayload(), emptyPayload()])
            c &+= opaqueCount(data) &+ opaqueCount(uri.utf8) &+ message.records.count
        }
        return c
    }
    let floorEncode = bestTime(rounds: rounds) {
        var c = 0
        for (k, m) in corpus.enumerated() {
            let first = [UInt8](repeating: 0, count: 1 + recordLengths[k][0])
            let second = [UInt8](repeating: 0, count: 1 + recordLengths[k][1])
            let message = NFCNDEFMessage(records: [emptyPayload(), emptyPayload()])
            let out = [UInt8](repeating: 0, count: m.count)
            c &+= opaqueCount(first) &+ opaqueCount(second) &+ opaqueCount(out) &+ message.records.count
        }
        return c
    }
    guard coreNFCDecode.check == typedDecode.check, coreNFCEncode.check == bytes,
        foundationOnly.check == typedDecode.check, floorDecode.check > 0, floorEncode.check > 0
    else {
        throw BenchError(description: "NFCNDEFMessage path mismatch")
    }
    guard typedDecode.check == typedDecodeViaMessage.check else {
        throw BenchError(description: "typed decoding mismatch")
    }
    guard typedEncode.check == bytes, typedEncodeViaRecords.check == bytes else {
        throw BenchError(description: "typed encoding mismatch")
    }

    var out: [(String, JSONValue)] = [
        (
            "corpus",
            .object([
                ("messages", .int(n)), ("bytes", .int(bytes)),
                ("description", .string("message i = URI https://example.com/item/<i> + Text 'Item <i>' (en)")),
            ])
        ),
        ("rounds", .int(rounds)),
        ("clock", .string("thread CPU time, best round")),
        ("load_average", .string(loadAverage())),
    ]
    out += rates(decode.seconds, messages: n, bytes: bytes, prefix: "decode")
    out += rates(encode.seconds, messages: n, bytes: bytes, prefix: "encode")
    out.append(
        (
            "typed",
            .object(
                rates(typedDecode.seconds, messages: n, bytes: bytes, prefix: "decode")
                    + rates(typedDecodeViaMessage.seconds, messages: n, bytes: bytes, prefix: "decode_via_message")
                    + rates(typedEncode.seconds, messages: n, bytes: bytes, prefix: "encode")
                    + rates(typedEncodeViaRecords.seconds, messages: n, bytes: bytes, prefix: "encode_via_records"))
        ))
    out.append(
        (
            "NFCNDEFMessage",
            .object(
                rates(coreNFCDecode.seconds, messages: n, bytes: bytes, prefix: "decode")
                    + rates(coreNFCEncode.seconds, messages: n, bytes: bytes, prefix: "encode")
                    + rates(foundationOnly.seconds, messages: n, bytes: bytes, prefix: "foundation_only_decode")
                    + rates(floorDecode.seconds, messages: n, bytes: bytes, prefix: "objects_only_decode")
                    + rates(floorEncode.seconds, messages: n, bytes: bytes, prefix: "objects_only_encode"))
        ))

    let lib: NDEFLibOutcome? = withNDEFLib ? runNDEFLib(corpus: corpus, rounds: rounds) : nil
    if case .measured(let lib)? = lib {
        out.append(("ndeflib", lib))
        if let d = lib["decode_msgs_per_s"]?.intValue, let e = lib["encode_msgs_per_s"]?.intValue, d > 0, e > 0 {
            func ratio(_ ours: Double, _ theirs: Int) -> JSONValue {
                .double((ours / Double(theirs) * 10).rounded() / 10)
            }
            out.append(
                (
                    "speedup_vs_ndeflib",
                    .object([
                        ("decode", ratio(Double(n) / decode.seconds, d)),
                        ("encode", ratio(Double(n) / encode.seconds, e)),
                        ("typed_decode", ratio(Double(n) / typedDecode.seconds, d)),
                        ("typed_decode_via_message", ratio(Double(n) / typedDecodeViaMessage.seconds, d)),
                        ("typed_encode", ratio(Double(n) / typedEncode.seconds, e)),
                        ("typed_encode_via_records", ratio(Double(n) / typedEncodeViaRecords.seconds, e)),
                        ("NFCNDEFMessage_decode", ratio(Double(n) / coreNFCDecode.seconds, d)),
                        ("NFCNDEFMessage_encode", ratio(Double(n) / coreNFCEncode.seconds, e)),
                        ("NFCNDEFMessage_decode_foundation_ceiling", ratio(Double(n) / foundationOnly.seconds, d)),
                        ("NFCNDEFMessage_decode_objects_ceiling", ratio(Double(n) / floorDecode.seconds, d)),
                        ("NFCNDEFMessage_encode_objects_ceiling", ratio(Double(n) / floorEncode.seconds, e)),
                    ])
                ))
        }
    } else if case .notMeasured(let why)? = lib {
        FileHandle.standardError.write(Data("ndeflib not measured: \(why)\n".utf8))
        out.append(("ndeflib", .string("not measured: \(why)")))
    }
    return .object(out)
}

/// A payload with empty fields: the cheapest `NFCNDEFPayload` the public API makes (no `Data` allocated).
@inline(never)
func emptyPayload() -> NFCNDEFPayload {
    NFCNDEFPayload(format: .empty, type: Data(), identifier: Data(), payload: Data())
}

/// The count of `value`, through a call the optimiser cannot see into, so that the floor loops' allocations are
/// not removed as unused.
@inline(never) @_optimize(none)
func opaqueCount<C: Collection>(_ value: C) -> Int {
    value.count
}

/// What running ndeflib gave: its figures, or why there are none.
enum NDEFLibOutcome {
    case measured(JSONValue)
    case notMeasured(String)
}

/// Runs ndeflib on the same corpus in a python3 subprocess. Never fails the benchmark: a missing python3 or
/// ndeflib, a python3 that fails or exits before reading its input (SIGPIPE is ignored; the write error is caught)
/// or prints something else than its JSON line gives the reason instead.
func runNDEFLib(corpus: [[UInt8]], rounds: Int) -> NDEFLibOutcome {
    let script = """
        import sys, time, json
        try:
            import ndef
        except ImportError:
            sys.exit(3)
        corpus = [bytes.fromhex(line.strip()) for line in sys.stdin if line.strip()]
        n = len(corpus)
        total = sum(len(m) for m in corpus)
        rounds = int(sys.argv[1])
        def best(f):
            f()
            b = float('inf')
            for _ in range(rounds):
                t = time.thread_time(); f(); b = min(b, time.thread_time() - t)
            return b
        decoded = [list(ndef.message_decoder(m)) for m in corpus]
        same = all(b''.join(ndef.message_encoder(r)) == m for r, m in zip(decoded, corpus))
        d = best(lambda: [list(ndef.message_decoder(m)) for m in corpus])
        e = best(lambda: [b''.join(ndef.message_encoder(r)) for r in decoded])
        print(json.dumps({"version": getattr(ndef, "__version__", "?"), "same_bytes": same,
            "decode_msgs_per_s": round(n / d), "decode_mb_per_s": round(total / d / 1e6, 2),
            "encode_msgs_per_s": round(n / e), "encode_mb_per_s": round(total / e / 1e6, 2)}))
        """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, String(rounds)]
    let input = Pipe()
    let output = Pipe()
    p.standardInput = input
    p.standardOutput = output
    p.standardError = FileHandle.nullDevice
    // A python3 that exits before reading all of stdin must not kill us with SIGPIPE: writes then fail with EPIPE.
    ignoreBrokenPipes()
    do { try p.run() } catch { return .notMeasured("python3 could not be started (\(error))") }
    let text = corpus.map { $0.hexString }.joined(separator: "\n") + "\n"
    // Feed stdin from another thread so a full pipe cannot deadlock against reading stdout.
    let writeFailure = WriteFailure()
    let writer = Thread {
        do { try input.fileHandleForWriting.write(contentsOf: Data(text.utf8)) } catch { writeFailure.set("\(error)") }
        try? input.fileHandleForWriting.close()
    }
    writer.start()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    switch (p.terminationReason, p.terminationStatus) {
    case (.exit, 0): break
    case (.exit, 3): return .notMeasured("python3 has no ndeflib (pip install ndeflib)")
    case (.exit, 127): return .notMeasured("python3 not found")
    case (.exit, let status): return .notMeasured("python3 exited with status \(status)")
    case (_, let signal): return .notMeasured("python3 was killed by signal \(signal)")
    }
    if let failure = writeFailure.get() {
        return .notMeasured("python3 stopped reading the corpus early (\(failure))")
    }
    guard let figures = try? JSONValue(parsing: String(decoding: data, as: UTF8.self)) else {
        return .notMeasured("python3 printed no figures")
    }
    return .measured(figures)
}

/// The feeding thread's write error, read after python3 has exited.
final class WriteFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var message: String?
    func set(_ m: String) { lock.withLock { message = m } }
    func get() -> String? { lock.withLock { message } }
}
