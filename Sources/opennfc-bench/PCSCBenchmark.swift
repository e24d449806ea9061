import Foundation
import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCSimulation
import OpenNFCTestSupport
import OpenNFCVPCD
import Synchronization

/// `opennfc-bench pcsc`: APDU round trips through pcscd with our binding (`FF B0 00 04 10`, READ BINARY of 16 bytes
/// from page 4), and pyscard's on the same card in the same run when `python3` can `import smartcard`.
///
/// Options: `--reader <name>` (exact, or a part only one reader has; default: the first reader with a card),
/// `--count <n>` APDUs per figure (default 1000), `--no-pyscard`.
///
/// With no card anywhere and the vsmartcard virtual reader present (`scripts/pcscd up`), an NTAG215 is served in
/// process on `Virtual PCD 00 00` for the run (`served_in_process: true`); pyscard then talks to the same card.
///
/// Figures, in milliseconds per APDU (one `SCardTransmit` each, timed with a monotonic clock): `median_ms`,
/// `p99_ms`, `mean_ms`, `min_ms`, `max_ms`. pyscard is measured twice: through its C-level `smartcard.scard` module
/// (`SCardTransmit` called from Python) and through its object API (`CardConnection.transmit`);
/// `median_ratio_to_pyscard` compares our median with the C-level one, the stricter of the two.
let pcscBenchmark = BenchMode(
    name: "pcsc",
    summary: "APDU round trips through pcscd (FF B0 00 04 10), with pyscard's beside them.",
    run: runPCSCBenchmark
)

func runPCSCBenchmark(_ args: [String]) throws -> JSONValue {
    var wanted: String?
    var count = 1000
    var pyscard = true
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--reader":
            guard i + 1 < args.count else { throw BenchError(description: "--reader needs a reader name") }
            wanted = args[i + 1]
            i += 1
        case "--count":
            guard i + 1 < args.count, let n = Int(args[i + 1]), n > 0, n <= 1_000_000 else {
                throw BenchError(description: "--count takes a whole number from 1 to 1000000")
            }
            count = n
            i += 1
        case "--no-pyscard": pyscard = false
        default: throw BenchError(description: "unknown option '\(args[i])' (pcsc: --reader, --count, --no-pyscard)")
        }
        i += 1
    }

    let context: PCSCContext
    let readers: [String]
    do {
        context = try PCSCContext()
        readers = try context.requireReaders()
    } catch {
        throw BenchError(description: error.detail)
    }
    var served: VPCDServer?
    var servedOn = ""
    defer {
        // Take the card away and wait until pcscd has seen it go, so that the next run finds the slot empty.
        if let served {
            served.stop()
            _ = try? context.waitForRemoval(on: servedOn, timeoutMilliseconds: 3000)
        }
    }
    let reader: String
    if let wanted {
        let matches = readers.filter { $0 == wanted || $0.contains(wanted) }
        guard matches.count == 1 else {
            throw BenchError(description: "'\(wanted)' matches \(matches.count) of the readers \(readers)")
        }
        reader = matches[0]
    } else if let withCard = try pcscStates(context, readers).first(where: \.hasCard)?.reader {
        reader = withCard
    } else if readers.contains("Virtual PCD 00 00") {
        served = try serveBenchTag(context: context, reader: "Virtual PCD 00 00")
        servedOn = "Virtual PCD 00 00"
        reader = "Virtual PCD 00 00"
    } else {
        throw BenchError(description: "no card on any reader (\(readers)); present one or use `scripts/pcscd up`")
    }

    let apdu: [UInt8] = [0xFF, 0xB0, 0x00, 0x04, 0x10]
    var times: [Double] = []
    do {
        let card = try context.connect(reader: reader, share: .shared)
        defer { card.disconnect() }
        let first = try card.transmit(apdu)
        guard first.isSuccess, first.data.count == 16 else {
            throw BenchError(description: "the card answered FF B0 00 04 10 with \(first); it needs a Type 2 tag")
        }
        times.reserveCapacity(count)
        let clock = ContinuousClock()
        for _ in 0..<count {
            let start = clock.now
            _ = try card.transmitRaw(apdu)
            let d = clock.now - start
            times.append(Double(d.components.seconds) * 1e3 + Double(d.components.attoseconds) / 1e15)
        }
    } catch let error as PCSCError {
        throw BenchError(description: error.detail)
    }
    let ours = latencyFigures(times)
    var members: [(String, JSONValue)] = [
        ("mode", .string("pcsc")),
        ("reader", .string(reader)),
        ("apdu", .string(apdu.hexString)),
        ("count", .int(count)),
        ("served_in_process", .bool(served != nil)),
    ]
    members += ours.map { ($0.0, .double($0.1)) }
    if pyscard {
        let (py, note) = runPyscard(reader: reader, count: count)
        if let py {
            members.append(("pyscard", .object(py.map { ($0.0, .double($0.1)) })))
            if let pyMedian = py.first(where: { $0.0 == "scard_median_ms" })?.1, pyMedian > 0 {
                members.append(("median_ratio_to_pyscard", .double(ours[0].1 / pyMedian)))
            }
        } else {
            members.append(("pyscard", .null))
            members.append(("pyscard_note", .string(note)))
        }
    }
    return .object(members)
}

private func pcscStates(_ context: PCSCContext, _ readers: [String]) throws -> [PCSCReaderState] {
    do { return try context.states(of: readers) } catch { throw BenchError(description: error.detail) }
}

/// Serves an NTAG215 on the first virtual slot and waits until pcscd reports it. Takes the slots' lock first (held
/// until the process exits), so a benchmark never puts a card into a slot a test run is using.
private func serveBenchTag(context: PCSCContext, reader: String) throws -> VPCDServer {
    benchSlotLock.withLock { $0 = $0 ?? SlotLock() }
    let text = "benchmark".utf8
    let message = [0xD1, 0x01, UInt8(text.count + 3), 0x54, 0x02, 0x65, 0x6E] + Array(text)
    let tag = try Type2Tag.factory(
        Type2ChipProfile.named("ntag215")!, uid: [0x04, 0xBE, 0x4C, 0x11, 0x22, 0x33, 0x44], holding: message)
    let server = VPCDServer(card: VPCDCard(tag: tag), port: 35963)
    do { try server.connect() } catch { throw BenchError(description: error.message) }
    let thread = Thread { try? server.run() }
    thread.start()
    do {
        guard try context.waitForCard(on: reader, timeoutMilliseconds: 5000) != nil else {
            server.stop()
            throw BenchError(description: "pcscd did not report the served card on '\(reader)' within 5 s")
        }
    } catch let error as PCSCError {
        server.stop()
        throw BenchError(description: error.detail)
    }
    return server
}

/// Held from the first served card until the process exits.
private let benchSlotLock = Mutex<SlotLock?>(nil)

/// median, p99, mean, min, max in milliseconds.
func latencyFigures(_ samples: [Double]) -> [(String, Double)] {
    let s = samples.sorted()
    func pct(_ p: Double) -> Double { s[min(s.count - 1, Int((p * Double(s.count)).rounded(.up)) - 1)] }
    let median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
    return [
        ("median_ms", median), ("p99_ms", pct(0.99)), ("mean_ms", s.reduce(0, +) / Double(s.count)),
        ("min_ms", s.first!), ("max_ms", s.last!),
    ]
}

/// The pyscard half: the same APDU, the same count, the same card (our connection is closed first).
private func runPyscard(reader: String, count: Int) -> ([(String, Double)]?, String) {
    let script = """
        import json, sys, time
        try:
            from smartcard import scard
            from smartcard.System import readers
        except Exception as e:
            print(json.dumps({"error": "import smartcard failed: %s" % e})); sys.exit(0)
        name, n = sys.argv[1], int(sys.argv[2])
        apdu = [0xFF, 0xB0, 0x00, 0x04, 0x10]
        def figures(t):
            t.sort(); m = len(t)
            med = t[m // 2] if m % 2 else (t[m // 2 - 1] + t[m // 2]) / 2
            import math
            return med, t[min(m - 1, math.ceil(0.99 * m) - 1)], sum(t) / m
        rc, ctx = scard.SCardEstablishContext(scard.SCARD_SCOPE_USER)
        rc, card, proto = scard.SCardConnect(ctx, name, scard.SCARD_SHARE_SHARED, scard.SCARD_PROTOCOL_T0 | scard.SCARD_PROTOCOL_T1)
        if rc != 0:
            print(json.dumps({"error": "SCardConnect: " + scard.SCardGetErrorMessage(rc)})); sys.exit(0)
        pci = scard.SCARD_PCI_T1 if proto == scard.SCARD_PROTOCOL_T1 else scard.SCARD_PCI_T0
        scard.SCardTransmit(card, pci, apdu)
        t = []
        for _ in range(n):
            s = time.perf_counter(); rc, resp = scard.SCardTransmit(card, pci, apdu); t.append((time.perf_counter() - s) * 1e3)
        scard.SCardDisconnect(card, scard.SCARD_LEAVE_CARD)
        low = figures(t)
        r = [x for x in readers() if str(x) == name][0]
        c = r.createConnection(); c.connect(); c.transmit(apdu)
        t = []
        for _ in range(n):
            s = time.perf_counter(); c.transmit(apdu); t.append((time.perf_counter() - s) * 1e3)
        c.disconnect()
        high = figures(t)
        print(json.dumps({"scard_median_ms": low[0], "scard_p99_ms": low[1], "scard_mean_ms": low[2],
                          "connection_median_ms": high[0], "connection_p99_ms": high[1], "connection_mean_ms": high[2]}))
        """
    let p = Process()
    p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    p.arguments = ["python3", "-c", script, reader, String(count)]
    let out = Pipe()
    p.standardOutput = out
    p.standardError = FileHandle.nullDevice
    do { try p.run() } catch { return (nil, "python3 not found") }
    let data = out.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    guard let text = String(data: data, encoding: .utf8), let json = try? JSONValue(parsing: text),
        let object = json.objectValue
    else { return (nil, "python3 ended with status \(p.terminationStatus) and no result") }
    if let error = json["error"]?.stringValue { return (nil, error + " (pip install pyscard)") }
    let figures = object.compactMap { key, value -> (String, Double)? in
        switch value {
        case .double(let d): return (key, d)
        case .int(let i): return (key, Double(i))
        default: return nil
        }
    }
    return (figures, "")
}
