import Foundation
import OpenNFCTestSupport
import Testing

@testable import OpenNFCStation

/// The journal: fsync'd appends, acknowledgement and compaction, bounded size, and recovery of a torn tail at every
/// byte (docs/STATIONS.md, "The journal").
@Suite struct JournalTests {
    let dir: URL

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("opennfc-journal-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { dir.appendingPathComponent(name).path }

    func payload(_ n: Int) -> [UInt8] { Array("{\"seq\":\(n),\"type\":\"arrived\"}".utf8) }

    @Test func crc32cCheckValue() {
        // RFC 3720 §B.4 / the CRC catalogue's check value for "123456789".
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
    }

    @Test func appendsSurviveReopenInOrder() throws {
        let p = path("j")
        do {
            let j = try Journal(path: p)
            for n in 1...5 { try j.append(sequence: UInt64(n), topic: "t/\(n % 2)", payload: payload(n)) }
        }
        let j = try Journal(path: p)
        #expect(j.warnings.isEmpty)
        #expect(j.pending.map(\.sequence) == [1, 2, 3, 4, 5])
        #expect(j.pending.map(\.topic) == ["t/1", "t/0", "t/1", "t/0", "t/1"])
        #expect(j.pending[2].payload == payload(3))
        #expect(j.nextSequence == 6)
    }

    @Test func acknowledgedEventsAreGoneAfterReopenAndSequenceKeepsGrowing() throws {
        let p = path("j")
        do {
            let j = try Journal(path: p)
            for n in 1...4 { try j.append(sequence: UInt64(n), topic: "t", payload: payload(n)) }
            try j.acknowledge(through: 2)
            #expect(j.pending.map(\.sequence) == [3, 4])
        }
        do {
            let j = try Journal(path: p)
            #expect(j.pending.map(\.sequence) == [3, 4])
            try j.acknowledge(through: 4)
            try j.close()
        }
        let j = try Journal(path: p)
        #expect(j.pending.isEmpty)
        #expect(j.nextSequence == 5, "the base record keeps the sequence after everything was compacted away")
        // Compaction left only the magic and the base record.
        #expect(j.size == 8 + 8 + 9)
    }

    @Test func compactionKeepsUnacknowledgedEventsAndShrinksTheFile() throws {
        let j = try Journal(path: path("j"))
        let big = [UInt8](repeating: 0x41, count: 1000)
        for n in 1...600 { try j.append(sequence: UInt64(n), topic: "t", payload: big) }
        let before = j.size
        try j.acknowledge(through: 590)
        #expect(j.size < before / 10, "acknowledging 590 of 600 records compacts (\(j.size) of \(before) bytes)")
        #expect(j.pending.map(\.sequence) == Array(591...600))
    }

    @Test func fullJournalIsAClearErrorAndFreesUpOnAcknowledgement() throws {
        let j = try Journal(path: path("j"), capacity: 4096)
        let big = [UInt8](repeating: 0x42, count: 1000)
        var n: UInt64 = 1
        var full: JournalError?
        while full == nil {
            do {
                try j.append(sequence: n, topic: "t", payload: big)
                n += 1
            } catch {
                full = error
            }
        }
        let e = try #require(full)
        #expect(e.code == .full)
        #expect(e.message.contains("is full: \(n - 1) events"))
        #expect(e.message.contains("--journal-size"))
        #expect(j.nextSequence == n + 1, "the refused event spent its sequence number (ids stay unique)")
        try j.acknowledge(through: n - 1)
        try j.append(sequence: n + 1, topic: "t", payload: big)
        #expect(j.pending.map(\.sequence) == [n + 1])
    }

    @Test func aSecondProcessCannotOpenTheSameJournal() throws {
        let p = path("j")
        let first = try Journal(path: p)
        #expect(throws: JournalError.self) { try Journal(path: p) }
        do {
            _ = try Journal(path: p)
        } catch {
            #expect(error.code == .locked)
            #expect(error.message.contains("in use by another process"))
        }
        _ = first
    }

    @Test func aForeignFileIsRefusedNotOverwritten() throws {
        let p = path("notes.txt")
        try Data("shopping list\n".utf8).write(to: URL(fileURLWithPath: p))
        do {
            _ = try Journal(path: p)
            Issue.record("a foreign file was accepted")
        } catch {
            #expect(error.code == .notAJournal)
            #expect(error.message.contains("not an opennfc watch journal"))
        }
        #expect(try String(contentsOfFile: p, encoding: .utf8) == "shopping list\n")
    }

    /// Writes events 1…3, an acknowledgement of 1, and event 4; then cuts the file at every length and reopens: the
    /// journal holds exactly the whole records before the cut, warns iff the cut was inside a record, and works on.
    @Test func tornTailIsRecoveredAtEveryByte() throws {
        let p = path("whole")
        var boundaries: [Int] = []
        do {
            let j = try Journal(path: p)
            boundaries.append(j.size)
            for n in 1...3 {
                try j.append(sequence: UInt64(n), topic: "nfc/s1/events/r\(n)", payload: payload(n))
                boundaries.append(j.size)
            }
            try j.acknowledge(through: 1)
            boundaries.append(j.size)
            try j.append(sequence: 4, topic: "nfc/s1/events/r4", payload: payload(4))
            boundaries.append(j.size)
        }
        let whole = try Data(contentsOf: URL(fileURLWithPath: p))
        #expect(whole.count == boundaries.last)
        // What a reopened journal must hold when the file ends at each record boundary.
        let expected: [[UInt64]] = [[], [1], [1, 2], [1, 2, 3], [2, 3], [2, 3, 4]]
        for cut in 0..<whole.count {
            let q = path("cut-\(cut)")
            try whole.prefix(cut).write(to: URL(fileURLWithPath: q))
            var j: Journal? = try Journal(path: q)
            let whole = boundaries.lastIndex { $0 <= cut } ?? 0
            let atBoundary = boundaries.contains(cut) || cut == 0
            #expect(j?.pending.map(\.sequence) == expected[whole], "cut at \(cut)")
            let warnings = j?.warnings ?? []
            if atBoundary {
                #expect(warnings.isEmpty, "cut at \(cut): \(warnings)")
            } else {
                #expect(warnings.count == 1, "cut at \(cut)")
                let w = warnings.first ?? ""
                if cut < 8 {
                    #expect(w.contains("torn header"), "cut at \(cut): \(w)")
                } else {
                    let offset = boundaries[whole]
                    #expect(
                        w.contains("at byte offset \(offset) (\(cut - offset) bytes dropped)"), "cut at \(cut): \(w)")
                }
            }
            // The recovered journal takes new events and reopens cleanly.
            let next = try #require(j?.nextSequence)
            try j?.append(sequence: next, topic: "t", payload: payload(99))
            j = nil
            let reopened = try Journal(path: q)
            #expect(reopened.warnings.isEmpty, "cut at \(cut): \(reopened.warnings)")
            #expect(reopened.pending.map(\.sequence) == expected[whole] + [next], "cut at \(cut)")
        }
    }

    @Test func aFlippedByteInTheLastRecordFailsItsCRC() throws {
        let p = path("j")
        do {
            let j = try Journal(path: p)
            for n in 1...3 { try j.append(sequence: UInt64(n), topic: "t", payload: payload(n)) }
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: p))
        bytes[bytes.count - 3] ^= 0x20
        try bytes.write(to: URL(fileURLWithPath: p))
        let j = try Journal(path: p)
        #expect(j.pending.map(\.sequence) == [1, 2])
        #expect(j.warnings.first?.contains("torn or corrupt record") == true)
    }
}
