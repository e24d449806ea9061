import Foundation
import OpenNFCBytes
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport

/// `opennfc-bench air`: per chip, the air time of a whole-tag NDEF read and write as the reader procedures do them,
/// beside the physical minimum — the air time of the fewest frames the chip's commands and the simulated iPhone's
/// frame size (258-byte answers) allow, as docs/PROCEDURES.md derives them ("Frame counts") — and their ratio
/// (docs/TIMING.md).
///
/// Per chip and operation (a full-capacity message read; the same written onto the factory tag):
/// - `min_frames`, `min_ms`: the minimal plan's exchanges and their air time by ``AirTimeModel`` (frames and the
///   gaps the standards require);
/// - `frames`, `air_ms`: what the procedures sent, timed frame by frame by the same model;
/// - `ratio`: `air_ms / min_ms`;
/// - `clock_ms`: the simulated field's clock over the procedure: air time plus the chips' own time (EEPROM
///   programming), which no reader can avoid either.
///
/// Nothing is timed on the wall clock: every figure is computed, so one run is enough.
let airBenchmark = BenchMode(
    name: "air",
    summary: "Air time of whole-tag NDEF reads and writes per chip against the fewest frames possible.",
    run: { _ in try runAirBenchmark() }
)

/// One exchange of a minimal plan: the command as sent and the answer's length (nil: a 4-bit ACK).
private struct PlannedExchange {
    var command: [UInt8]
    var answer: Int?
}

/// Type 2: READ page 3, FAST_READ the rest of the message's pages in runs of 64; a write is READ 3 and one WRITE per
/// message page (docs/PROCEDURES.md, "Why these are the minimum").
private func type2Plan(lastPage: Int, firstWritten: Int) -> (read: [PlannedExchange], write: [PlannedExchange]) {
    var read = [PlannedExchange(command: [0x30, 0x03], answer: 16)]
    var page = 7
    while page <= lastPage {
        let end = min(page + 63, lastPage)
        read.append(PlannedExchange(command: [0x3A, UInt8(page), UInt8(end)], answer: 4 * (end - page + 1)))
        page = end + 1
    }
    let write =
        [PlannedExchange(command: [0x30, 0x03], answer: 16)]
        + (firstWritten...lastPage).map { PlannedExchange(command: [0xA2, UInt8($0), 0, 0, 0, 0], answer: nil) }
    return (read, write)
}

/// Type 5 (addressed, high data rate): READ SINGLE BLOCK 0 (the CC), READ MULTIPLE BLOCKS in runs of 64 over the
/// T5T area's blocks 1…last; a write is detection (block 0 and the first run) and one WRITE SINGLE BLOCK per block.
private func type5Plan(uid: [UInt8], lastBlock: Int) -> (read: [PlannedExchange], write: [PlannedExchange]) {
    let address = Array(uid.reversed())
    let single = PlannedExchange(command: [0x22, 0x20] + address + [0x00], answer: 5)
    var runs: [PlannedExchange] = []
    var block = 1
    while block <= lastBlock {
        let end = min(block + 63, lastBlock)
        runs.append(
            PlannedExchange(
                command: [0x22, 0x23] + address + [UInt8(block), UInt8(end - block)], answer: 1 + 4 * (end - block + 1))
        )
        block = end + 1
    }
    let writes = (1...lastBlock).map {
        PlannedExchange(command: [0x22, 0x21] + address + [UInt8($0), 0, 0, 0, 0], answer: 1)
    }
    return ([single] + runs, [single, runs[0]] + writes)
}

/// Records the air time of every frame the procedures put on the air, by the model.
private final class AirMeter {
    var tracker = AirTracker()
    var air = AirTime.zero
    func note(_ event: RFTraceEvent) { air = air + tracker.frames(for: event).total() }
}

private func milliseconds(_ t: AirTime) -> Double { (t.microseconds / 10).rounded() / 100 }

private func figures(
    plan: [PlannedExchange], target: RFTarget, frames: Int, air: AirTime, clock: NFCDuration
) -> JSONValue {
    let model = AirTimeModel.standard
    let minimum = plan.map { p in
        model.exchange(
            p.command, answer: p.answer.map { .frame(Array(repeating: 0, count: $0)) } ?? .ack, target: target
        ).total()
    }.total()
    return .object([
        ("min_frames", .int(plan.count)), ("min_ms", .double(milliseconds(minimum))), ("frames", .int(frames)),
        ("air_ms", .double(milliseconds(air))),
        ("ratio", .double((Double(air.cycles) / Double(minimum.cycles) * 1000).rounded() / 1000)),
        ("clock_ms", .double((Double(clock.nanoseconds) / 1e4).rounded() / 100)),
    ])
}

/// Runs `body` on `bench` with the meter counting from now, returning frames, air and clock time spent.
private func measure(
    _ bench: FieldBench, _ meter: AirMeter, _ body: () throws -> Void
) rethrows -> (frames: Int, air: AirTime, clock: NFCDuration) {
    bench.frontend.resetCounts()
    meter.air = .zero
    let start = bench.clock.now
    try body()
    return (bench.frames, meter.air, bench.clock.now.duration(since: start))
}

func runAirBenchmark() throws -> JSONValue {
    var chips: [(String, JSONValue)] = []
    let uid: [UInt8] = [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6]
    // Type 2: the message's last page and the first page a write onto the factory tag changes (docs/PROCEDURES.md).
    let type2: [(Type2ChipProfile, Int, Int, Int)] = [
        (.ntag213, 137, 39, 5), (.ntag215, 492, 127, 4), (.ntag216, 868, 221, 4),
    ]
    for (profile, capacity, lastPage, firstWritten) in type2 {
        let bench = FieldBench()
        let meter = AirMeter()
        bench.frontend.observer = { meter.note($0) }
        let chip = try Type2Tag.factory(profile, uid: uid)
        let message = ndefMessage(length: capacity, seed: 1)
        var (identified, procedure) = try bench.connect(chip, polling: RFPollRequest([.nfcA]))
        let written = try measure(bench, meter) { try procedure.writeMessage(message) }
        (identified, procedure) = try bench.connect(chip, polling: RFPollRequest([.nfcA]))
        var readBack: [UInt8] = []
        let read = try measure(bench, meter) { readBack = try procedure.readMessage() }
        guard readBack == message else { throw BenchError(description: "\(profile.name): the read differs") }
        let plan = type2Plan(lastPage: lastPage, firstWritten: firstWritten)
        chips.append(
            (
                profile.name,
                .object([
                    (
                        "read",
                        figures(
                            plan: plan.read, target: identified.target, frames: read.frames, air: read.air,
                            clock: read.clock)
                    ),
                    (
                        "write",
                        figures(
                            plan: plan.write, target: identified.target, frames: written.frames, air: written.air,
                            clock: written.clock)
                    ),
                ])
            ))
    }
    // Type 5: the T5T area's last block (docs/PROCEDURES.md, "Type 5 read").
    let type5: [(ISO15693ChipProfile, Int, Int)] = [
        (.icodeSLIX, 106, 27), (.icodeSLIX2, 304, 77), (.st25dv04k, 504, 127),
    ]
    for (profile, capacity, lastBlock) in type5 {
        let bench = FieldBench()
        let meter = AirMeter()
        bench.frontend.observer = { meter.note($0) }
        let tagUID = Array((profile.uidPrefix + [0x10, 0x20, 0x30, 0x40, 0x50]).prefix(8))
        let chip = try ISO15693Tag.factory(profile, uid: tagUID)
        let message = ndefMessage(length: capacity, seed: 1)
        var target = try bench.activate(chip, polling: RFPollRequest([.nfcV]))
        var procedure = Type5NDEF(uid: target.identifier, frontend: bench.frontend)
        let written = try measure(bench, meter) { try procedure.writeMessage(message) }
        target = try bench.activate(chip, polling: RFPollRequest([.nfcV]))
        procedure = Type5NDEF(uid: target.identifier, frontend: bench.frontend)
        var readBack: [UInt8] = []
        let read = try measure(bench, meter) { readBack = try procedure.readMessage() }
        guard readBack == message else { throw BenchError(description: "\(profile.name): the read differs") }
        let plan = type5Plan(uid: target.identifier, lastBlock: lastBlock)
        chips.append(
            (
                profile.name,
                .object([
                    (
                        "read",
                        figures(plan: plan.read, target: target, frames: read.frames, air: read.air, clock: read.clock)
                    ),
                    (
                        "write",
                        figures(
                            plan: plan.write, target: target, frames: written.frames, air: written.air,
                            clock: written.clock)
                    ),
                ])
            ))
    }
    return .object([("model", .string("docs/TIMING.md")), ("chips", .object(chips))])
}
