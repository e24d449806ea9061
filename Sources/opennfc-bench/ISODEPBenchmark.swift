import Foundation
import OpenNFCBytes
import OpenNFCSimulation

/// `opennfc-bench isodep`: how fast the virtual ISO-DEP cards answer, called directly (no field, no frontend).
///
/// Figures (best of several timed rounds):
/// - `type4.readBinary_per_s`: READ BINARY of 255 bytes (MLe) from a 4 KiB NDEF file.
/// - `type4.updateBinary_per_s`: UPDATE BINARY of 255 bytes (MLc).
/// - `type4.ndefRead4KiB_per_s`: the whole T4T read procedure of a 4094-byte message: SELECT application, SELECT
///   and READ the CC, SELECT the NDEF file, READ NLEN, 17 READ BINARY of up to 255 bytes (21 APDUs).
/// - `desfire.readData4KiB_per_s`: native ReadData of the 4096-byte NDEF file: 70 frames with AF chaining.
/// - `desfire.getVersion_per_s`: the three GetVersion frames.
///
/// Options: `--rounds <n>` timed rounds per figure (default 7).
let isodepBenchmark = BenchMode(
    name: "isodep",
    summary: "Virtual Type 4 and DESFire EV1 APDU rates (direct calls).",
    run: runISODEPBenchmark
)

func runISODEPBenchmark(_ args: [String]) throws -> JSONValue {
    var rounds = 7
    if let i = args.firstIndex(of: "--rounds"), i + 1 < args.count, let n = Int(args[i + 1]), n > 0 { rounds = n }
    let uid: [UInt8] = [0x04, 0x1F, 0x5B, 0x92, 0xDA, 0x2C, 0x80]
    let message = [0xD1, 0x01, 0xFF] + [UInt8](repeating: 0x41, count: 4091)  // 4094 bytes: fills the file
    let type4 = try Type4Tag.factory(uid: uid, holding: message)
    func send(_ tag: any VirtualTag, _ apdu: [UInt8]) throws -> Int {
        guard case .data(let answer) = tag.receive(apdu, tearAfter: nil) else {
            throw BenchError(description: "no answer")
        }
        return answer.count
    }
    let selectApp: [UInt8] = [0x00, 0xA4, 0x04, 0x00, 0x07, 0xD2, 0x76, 0x00, 0x00, 0x85, 0x01, 0x01, 0x00]
    let selectCC: [UInt8] = [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]
    let selectNDEF: [UInt8] = [0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x04]
    _ = try send(type4, selectApp)
    _ = try send(type4, selectNDEF)
    let n = 10_000
    let read = try bestTime(rounds: rounds) {
        var total = 0
        for i in 0..<n {
            let offset = (i % 16) * 255
            total += try send(type4, [0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), 0xFF])
        }
        return total
    }
    let update = try bestTime(rounds: rounds) {
        var total = 0
        let data = [UInt8](repeating: 0x41, count: 255)
        for i in 0..<n {
            let offset = 2 + (i % 15) * 255
            total += try send(type4, [0x00, 0xD6, UInt8(offset >> 8), UInt8(offset & 0xFF), 0xFF] + data)
        }
        return total
    }
    let procedures = 1_000
    let ndefRead = try bestTime(rounds: rounds) {
        var total = 0
        for _ in 0..<procedures {
            total += try send(type4, selectApp) + send(type4, selectCC)
            total += try send(type4, [0x00, 0xB0, 0x00, 0x00, 0x0F])
            total += try send(type4, selectNDEF) + send(type4, [0x00, 0xB0, 0x00, 0x00, 0x02])
            var offset = 2
            while offset < 4096 {
                let count = min(255, 4096 - offset)
                total += try send(type4, [0x00, 0xB0, UInt8(offset >> 8), UInt8(offset & 0xFF), UInt8(count)])
                offset += count
            }
        }
        return total
    }
    let desfire = try DESFireEV1Tag.ndefFormatted(uid: uid, holding: message)
    _ = try send(desfire, [0x5A, 0x01, 0x00, 0x00])
    let readData = try bestTime(rounds: rounds) {
        var total = 0
        for _ in 0..<procedures {
            total += try send(desfire, [0xBD, 0x02, 0, 0, 0, 0, 0, 0])
            for _ in 0..<69 { total += try send(desfire, [0xAF]) }
        }
        return total
    }
    let version = try bestTime(rounds: rounds) {
        var total = 0
        for _ in 0..<n {
            total += try send(desfire, [0x60]) + send(desfire, [0xAF]) + send(desfire, [0xAF])
        }
        return total
    }
    func rate(_ count: Int, _ seconds: Double) -> JSONValue { .int(Int((Double(count) / seconds).rounded())) }
    return .object([
        ("rounds", .int(rounds)),
        (
            "type4",
            .object([
                ("readBinary_per_s", rate(n, read.seconds)),
                ("updateBinary_per_s", rate(n, update.seconds)),
                ("ndefRead4KiB_per_s", rate(procedures, ndefRead.seconds)),
            ])
        ),
        (
            "desfire",
            .object([
                ("readData4KiB_per_s", rate(procedures, readData.seconds)),
                ("getVersion_per_s", rate(n, version.seconds)),
            ])
        ),
    ])
}
