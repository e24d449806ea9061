import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// Pages 3–6 of a factory NTAG213: CC, Lock Control TLV (lock bytes at page 0x28, 12 bits), empty NDEF TLV,
/// Terminator (NFC Forum T2T §4.5–§4.8 TLV blocks, NTAG213 factory TLVs).
let ntag213FactoryPages3to6 = "E1 10 12 00 01 03 A0 0C 34 03 00 FE 00 00 00 00"

/// NTAG213 holding the URI record "http://nfcpy.org" (`D1 01 0A 55 03 …`, the nfcpy T4T test vector moved into a
/// Type 2 TLV after the factory Lock Control TLV).
/// Pages: 4 `01 03 A0 0C`, 5 `34 03 0E D1`, 6 `01 0A 55 03`, 7 `6E 66 63 70`, 8 `79 2E 6F 72`, 9 `67 FE 00 00`.
let nfcpyURI = h("D1 01 0A 55 03 6E 66 63 70 79 2E 6F 72 67")

@Suite struct Type2DetectTests {
    @Test func factoryNTAG213IsEmptyReadWriteWith137Bytes() throws {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6)  // READ page 3 (CC + TLVs)
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        // 144-byte data area − 5 (Lock Control TLV) − 1 (NDEF tag) − 1 (1-byte length) = 137.
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 137, messageLength: 0))
        #expect(try p.readMessage() == [])  // initialised and empty: no further frame
        #expect(f.isComplete)
    }

    @Test func detectionIsRememberedForTheActivation() throws {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6)  // READ page 3
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        _ = try p.detect()
        _ = try p.detect()
        #expect(f.isComplete)
    }

    @Test(arguments: [
        ("00 00 00 00 00 00 00 00 00 00 00 00 00 00 00 00", "not E1"),  // blank CC
        ("E1 20 12 00 03 00 FE 00 00 00 00 00 00 00 00 00", "major version 1"),  // mapping 2.0
        ("E1 10 12 80 03 00 FE 00 00 00 00 00 00 00 00 00", "read access"),  // proprietary read access
        ("E1 10 12 00 FE 00 00 00 00 00 00 00 00 00 00 00", "Terminator"),  // Terminator first
    ])
    func notSupportedTagsSayWhy(pages: String, reason: String) throws {
        let f = ScriptedFrontend([
            .send("30 03", pages)  // READ page 3
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        let d = try p.detect()
        #expect(d.status == .notSupported)
        #expect(d.capacity == 0)
        #expect(d.reason?.contains(reason) == true)
        #expect { try p.readMessage() } throws: { ($0 as? TagError)?.code == .notFormatted }
        #expect { try p.writeMessage(nfcpyURI) } throws: { ($0 as? TagError)?.code == .notFormatted }
        #expect(f.isComplete)
    }

    @Test func noNDEFTLVInTheWholeAreaIsNotSupported() throws {
        // A 48-byte area of NULL TLVs: the walk reads on to the end (pages 7–10, 11–14; page 15 ends it).
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 06 00 00 00 00 00 00 00 00 00 00 00 00 00"),  // READ page 3
            .send("30 07", [UInt8](repeating: 0, count: 16)),  // READ page 7
            .send("30 0B", [UInt8](repeating: 0, count: 16)),  // READ page 11
            .send("30 0F", [UInt8](repeating: 0, count: 16)),  // READ page 15
        ])
        let d = try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).detect()
        #expect(d.status == .notSupported)
        #expect(f.isComplete)
    }

    @Test func readOnlyCCReportsReadOnlyAndRefusesWritesWithoutAFrame() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 0F 01 03 A0 0C 34 03 00 FE 00 00 00 00")  // READ page 3
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect(try p.detect().status == .readOnly)
        #expect { try p.writeMessage(nfcpyURI) } throws: { ($0 as? TagError)?.code == .readOnly }
        #expect(f.isComplete)
    }

    @Test func threeByteLengthAndFullNTAG216Capacity() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 6D 00 03 FF 01 2C D1 01 FF 54 00 00 00 00")  // READ page 3
        ])
        let d = try Type2NDEF(target: ntagTarget, chip: .ntag216, frontend: f).detect()
        // 872-byte data area − 1 (tag) − 3 (FF hi lo) = 868.
        #expect(d == NDEFDetection(status: .readWrite, capacity: 868, messageLength: 300))
    }

    @Test func lengthPastTheDataAreaIsATornState() {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 06 00 03 30 D1 01 00 00 00 00 00 00 00 00")  // READ page 3: 48 bytes in 48
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).detect() } throws: {
            ($0 as? TagError)?.code == .tornStateDetected
        }
    }

    @Test func nakIsACommandRejection() {
        let f = ScriptedFrontend([
            .send("30 03", .nak(0))  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).detect() } throws: { e in
            (e as? TagError)?.code == .commandRejected && (e as? TagError)?.nak == 0
        }
        #expect(f.isComplete)
    }

    @Test func aTimedOutReadIsRepeatedOnceAfterReactivation() throws {
        let f = ScriptedFrontend([
            .send("30 03", .fail(.timeout)),  // READ page 3: lost
            .activate,  // the tag went IDLE: wake it
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3 again
        ])
        #expect(try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).detect().status == .readWrite)
        #expect(f.isComplete)
    }

    @Test func aSecondTimeoutGivesUp() {
        let f = ScriptedFrontend([
            .send("30 03", .fail(.transmission)),  // READ page 3: CRC error
            .activate,  // wake the tag
            .send("30 03", .fail(.timeout)),  // READ page 3 again: silence
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).detect() } throws: { e in
            (e as? TagError)?.code == .rf && (e as? TagError)?.rfError?.code == .timeout
        }
        #expect(f.isComplete)
    }

    @Test func linkLossIsNotRetried() {
        let f = ScriptedFrontend([
            .send("30 03", .fail(.linkLost))  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).detect() } throws: { e in
            (e as? TagError)?.rfError?.code == .linkLost
        }
        #expect(f.isComplete)
    }

    @Test(arguments: [h("E1 10 12 00"), []])
    func aShortReadAnswerIsInvalid(answer: [UInt8]) {
        let f = ScriptedFrontend([
            .send("30 03", answer)  // READ page 3: fewer than 16 bytes
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).detect() } throws: { e in
            (e as? TagError)?.code == .invalidResponse
        }
    }

    @Test func ackToAReadIsInvalid() {
        let f = ScriptedFrontend([
            .send("30 03", .ack)  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).detect() } throws: { e in
            (e as? TagError)?.code == .invalidResponse
        }
    }
}

@Suite struct Type2ReadTests {
    @Test func readUsesOneFastReadForTheRestOfTheMessage() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3 (pages 3–6)
            .send("3A 07 09", "6E 66 63 70 79 2E 6F 72 67 FE 00 00"),  // FAST_READ pages 7–9 (message end)
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect(try p.readMessage() == nfcpyURI)
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 137, messageLength: 14))
        #expect(f.isComplete)
    }

    @Test func withoutFastReadTheLastReadEndsOnTheMessage() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3 (pages 3–6)
            .send("30 06", "01 0A 55 03 6E 66 63 70 79 2E 6F 72 67 FE 00 00"),  // READ page 6 (pages 6–9)
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ultralight, frontend: f)
        #expect(try p.readMessage() == nfcpyURI)
        #expect(f.isComplete)
    }

    @Test func withoutRawFramesOnlyREADIsUsed() throws {
        let f = ScriptedFrontend(
            rawFrames: false,
            [
                .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
                .send("30 06", "01 0A 55 03 6E 66 63 70 79 2E 6F 72 67 FE 00 00"),  // READ page 6
            ])
        #expect(try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).readMessage() == nfcpyURI)
        #expect(f.isComplete)
    }

    /// A Memory Control TLV reserving page 6 (`02 03 60 04 02`: page 6 × 4 bytes + 0, 4 bytes): the NDEF TLV's value
    /// flows around it (T2T §4.8).
    @Test func memoryControlAreaIsSkipped() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 06 00 02 03 60 04 02 03 05 D1 AA AA AA AA"),  // READ page 3 (page 6 reserved)
            .send("30 04", "02 03 60 04 02 03 05 D1 AA AA AA AA 01 01 54 00"),  // READ page 4: ends on page 7
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .generic, frontend: f)
        // 48 − 5 (Memory Control TLV) − 4 (reserved) − 2 (NDEF tag and length) = 37.
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 37, messageLength: 5))
        #expect(try p.readMessage() == h("D1 01 01 54 00"))
        #expect(f.isComplete)
    }

    @Test func fastReadNAKIsARejection() {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("3A 07 09", .nak(0)),  // FAST_READ pages 7–9
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).readMessage() } throws: { e in
            (e as? TagError)?.code == .commandRejected
        }
        #expect(f.isComplete)
    }

    @Test func shortFastReadIsInvalid() {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("3A 07 09", "6E 66 63 70"),  // FAST_READ pages 7–9: one page only
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).readMessage() } throws: { e in
            (e as? TagError)?.code == .invalidResponse
        }
    }

    @Test func aMessageWhoseRecordsDoNotAddUpIsATornState() {
        let f = ScriptedFrontend([
            // NDEF TLV of 5 bytes holding a record that claims a 9-byte payload.
            .send("30 03", "E1 10 06 00 03 05 D1 01 09 54 00 FE 00 00 00 00")  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).readMessage() } throws: { e in
            (e as? TagError)?.code == .tornStateDetected
        }
    }
}

/// SECTOR_SELECT from the reader's side (T2T §5.4; NTAG I2C plus datasheet §9): `C2 FF` → ACK, then `SS 00 00 00`
/// whose success is silence (the passive ACK); pages are sector × 256 + page.
@Suite struct Type2SectorSelectTests {
    @Test func commandsGoToTheirSectorAndTheSelectionIsRemembered() throws {
        let f = ScriptedFrontend([
            .send("C2 FF", .ack),  // SECTOR_SELECT packet 1
            .send("01 00 00 00", .fail(.timeout)),  // packet 2: no answer = selected
            .send("30 10", [UInt8](repeating: 1, count: 16)),  // READ global page 272 = sector 1 page 10h
            .send("3A 20 21", [UInt8](repeating: 2, count: 8)),  // FAST_READ in sector 1: no new SECTOR_SELECT
            .send("C2 FF", .ack),
            .send("00 00 00 00", .fail(.timeout)),  // back to sector 0
            .send("A2 05 01 02 03 04", .ack),  // WRITE page 5
        ])
        let link = Type2Link(frontend: f, target: ntagTarget)
        #expect(try link.read(page: 0x110) == [UInt8](repeating: 1, count: 16))
        #expect(try link.fastRead(from: 0x120, to: 0x121) == [UInt8](repeating: 2, count: 8))
        try link.write(page: 5, [1, 2, 3, 4])
        #expect(link.sector == 0)
        #expect(f.isComplete)
    }

    @Test func aMissingSectorIsARejectionAndRetriesReselectAfterReactivation() throws {
        let f = ScriptedFrontend([
            .send("C2 FF", .ack),
            .send("02 00 00 00", .nak(0)),  // no sector 2
        ])
        let link = Type2Link(frontend: f, target: ntagTarget)
        #expect { _ = try link.read(page: 0x200) } throws: { ($0 as? TagError)?.code == .commandRejected }
        #expect(f.isComplete)

        // A READ in sector 1 that times out is repeated after re-activation, which selects sector 0 again.
        let g = ScriptedFrontend([
            .send("C2 FF", .ack),
            .send("01 00 00 00", .fail(.timeout)),
            .send("30 00", .fail(.timeout)),  // lost
            .activate,  // re-activation: the tag is in sector 0 again
            .send("C2 FF", .ack),
            .send("01 00 00 00", .fail(.timeout)),
            .send("30 00", [UInt8](repeating: 7, count: 16)),
        ])
        let again = Type2Link(frontend: g, target: ntagTarget)
        #expect(try again.read(page: 0x100) == [UInt8](repeating: 7, count: 16))
        #expect(g.isComplete)
    }

    @Test func aChipWithoutSectorsRefusesAnAreaPastPage255() throws {
        // A generic tag whose CC declares 2040 bytes (FF): past page 255, and no SECTOR_SELECT is known for it.
        let f = ScriptedFrontend([.send("30 03", "E1 10 FF 00 03 00 FE 00 00 00 00 00 00 00 00 00")])
        let p = Type2NDEF(target: ntagTarget, chip: .generic, frontend: f)
        #expect { _ = try p.detect() } throws: { ($0 as? TagError)?.code == .unsupported }
    }
}
