import Foundation
import OpenNFCBytes
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// Random and hostile input never traps, and what the datasheets promise always holds.
@Suite struct Type2RobustnessTests {
    /// Command codes with their frame lengths.
    static let commands: [(UInt8, Int)] = [
        (0x30, 2), (0xA2, 6), (0xA0, 2), (0x60, 1), (0x3A, 3), (0x39, 2), (0xA5, 6), (0x3E, 2), (0x4B, 21), (0x3C, 2),
        (0x1B, 5), (0xC2, 2),
    ]

    @Test(arguments: Type2ChipProfile.all)
    func randomFramesKeepTheUIDAndTheMemorySize(_ p: Type2ChipProfile) {
        var rng = SeededGenerator(seed: 0x5EED_0000 + UInt64(p.pageCount))
        let tag = factoryTag(p)
        let uidPages = Array(tag.memory[0..<8])
        var answers = 0
        for i in 0..<20_000 {
            if i % 3 == 0 { tag.reset() }
            let wellFormed = Int.random(in: 0..<10, using: &rng) < 8
            let command = Self.commands.randomElement(using: &rng)!
            let length = wellFormed ? command.1 : Int.random(in: 0...24, using: &rng)
            var frame = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            if wellFormed {
                frame[0] = command.0
                // Mostly valid page addresses, so writes and locks really happen.
                if frame.count > 1 && Bool.random(using: &rng) { frame[1] = UInt8(Int(frame[1]) % p.pageCount) }
            }
            let tear: Int? = Int.random(in: 0..<10, using: &rng) == 0 ? Int.random(in: 0...4, using: &rng) : nil
            if tag.receive(frame, tearAfter: tear) != .silence { answers += 1 }
        }
        #expect(tag.memory.count == p.pageCount * 4)
        #expect(Array(tag.memory[0..<8]) == uidPages)
        #expect(answers > 1_000)
    }

    @Test func mutatedTagFilesFailWithErrorsNotTraps() throws {
        var rng = SeededGenerator(seed: 42)
        let tag = factoryTag(.ultralightEV1_48)
        let json = Array(try TagFile.encodeJSON(tag).utf8)
        let flipper = Array(try FlipperNFCFile.encode(tag).utf8)
        let alphabet = Array("0123456789ABCDEFx?:{}[],\" -\n".utf8)
        var failures = 0
        for round in 0..<2_000 {
            var bytes = round % 2 == 0 ? json : flipper
            for _ in 0..<Int.random(in: 1...4, using: &rng) {
                let i = Int.random(in: 0..<bytes.count, using: &rng)
                switch Int.random(in: 0..<3, using: &rng) {
                case 0: bytes[i] = alphabet.randomElement(using: &rng)!
                case 1: bytes.remove(at: i)
                default: bytes.insert(alphabet.randomElement(using: &rng)!, at: i)
                }
            }
            let text = String(decoding: bytes, as: UTF8.self)
            do {
                _ = round % 2 == 0 ? try TagFile.decodeJSON(text) : try FlipperNFCFile.decode(text)
            } catch {
                failures += 1
                #expect(!error.description.isEmpty)
            }
        }
        #expect(failures > 500)
    }
}
