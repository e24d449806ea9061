import OpenNFCBytes
import OpenNFCRF
import Testing

@testable import OpenNFCTags

/// NAK, timeout and malformed answers for the procedures not covered in their own suites.
@Suite struct ErrorPathTests {
    @Test func fastReadTransmissionErrorIsRepeatedAfterReactivation() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("3A 07 09", .fail(.transmission)),  // FAST_READ pages 7–9: CRC error
            .activate,  // the chip went IDLE
            .send("3A 07 09", "6E 66 63 70 79 2E 6F 72 67 FE 00 00"),  // FAST_READ pages 7–9 again
        ])
        #expect(try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).readMessage() == nfcpyURI)
        #expect(f.isComplete)
    }

    @Test func withoutATargetReadsAreNotRepeated() {
        let f = ScriptedFrontend([
            .send("30 03", .fail(.timeout))  // READ page 3
        ])
        #expect { try Type2NDEF(target: nil, chip: .ntag213, frontend: f).detect() } throws: { e in
            (e as? TagError)?.rfError?.code == .timeout
        }
        #expect(f.isComplete)
    }

    @Test func makeReadOnlyTimeoutOnTheCCIsNotRepeated() {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3
            .send("A2 03 E1 10 12 0F", .fail(.timeout)),  // WRITE CC: no ACK
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).makeReadOnly() } throws: { e in
            (e as? TagError)?.rfError?.code == .timeout
        }
        #expect(f.isComplete)
    }

    @Test func formatStopsAtARefusedTLVWriteBeforeTheCC() {
        let f = ScriptedFrontend([
            .send("30 03", [UInt8](repeating: 0, count: 16)),  // READ page 3: blank
            .send("A2 04 01 03 A0 0C", .nak(0)),  // WRITE page 4: refused — the CC is never written
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).format() } throws: { e in
            (e as? TagError)?.code == .commandRejected
        }
        #expect(f.isComplete)
    }

    @Test func ultralightFormatProbesItsSize() throws {
        let f = ScriptedFrontend([
            .send("30 03", [UInt8](repeating: 0, count: 16)),  // READ page 3: blank
            .send("30 10", .nak(0)),  // READ page 16: past a 16-page Ultralight
            .activate,  // the NAK muted it
            .send("A2 04 03 00 FE 00", .ack),  // WRITE page 4: empty NDEF TLV, Terminator
            .send("A2 03 E1 10 06 00", .ack),  // WRITE CC: 48-byte data area
        ])
        try Type2NDEF(target: ntagTarget, chip: .ultralight, frontend: f).format()
        #expect(f.isComplete)
        let c = ScriptedFrontend([
            .send("30 03", [UInt8](repeating: 0, count: 16)),  // READ page 3: blank
            .send("30 10", [UInt8](repeating: 0, count: 16)),  // READ page 16: answered (Ultralight C / NTAG203)
            .send("A2 04 03 00 FE 00", .ack),  // WRITE page 4: empty NDEF TLV, Terminator
            .send("A2 03 E1 10 12 00", .ack),  // WRITE CC: 144-byte data area
        ])
        try Type2NDEF(target: ntagTarget, chip: .ultralight, frontend: c).format()
        #expect(c.isComplete)
    }

    @Test func formatOfAReadOnlyTagIsRefused() {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 0F 01 03 A0 0C 34 03 00 FE 00 00 00 00")  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).format() } throws: { e in
            (e as? TagError)?.code == .readOnly
        }
    }

    @Test func reactivationFailureAfterGetVersionIsAnRFError() {
        final class Failing: RFFrontend {
            let capabilities = RFCapabilities(
                maxCommandSize: 255, maxResponseSize: 256, rawFrames: true, technologies: [.nfcA])
            func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] { [] }
            func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget { throw RFError(.linkLost) }
            func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse { .nak(0) }
            func deactivate() {}
        }
        #expect { try TagIdentifier.identify(target: ntagTarget, frontend: Failing()) } throws: { e in
            (e as? TagError)?.rfError?.code == .linkLost
        }
    }

    @Test func truncatedDESFireGetVersionIsInvalid() {
        let target = RFTarget.nfcA(uid: h("04 1F 5B 92 DA 2C 80"), selRes: 0x20)
        let f = ScriptedFrontend([
            .send("90 60 00 00 00", "04 01 01 01 00 18 05 91 AF"),  // GetVersion: hardware
            .send("90 AF 00 00 00", "04 01 91 AF"),  // additional frame: software part cut short
        ])
        #expect { try TagIdentifier.identify(target: target, frontend: f) } throws: { e in
            (e as? TagError)?.code == .invalidResponse
        }
    }

    @Test func type4LongNLENIsCommittedAsTwoBytesAndMLc1ByteByByte() throws {
        let long = [0xD5, 0x00, 0xFF] + [UInt8](repeating: 0x33, count: 255)  // 258 bytes: NLEN 01 02
        var steps = type4Detection(cc: "00 0F 20 00 FF 00 FF 04 06 E1 04 04 00 00 00 90 00", nlen: "00 00")
        steps.append(.send("00 D6 00 02 FF" + " D5 00 FF" + String(repeating: " 33", count: 252), "90 00"))  // data
        steps.append(.send("00 D6 01 01 03 33 33 33", "90 00"))  // UPDATE BINARY 257: the last 3 bytes
        steps.append(.send("00 D6 00 00 02 01 02", "90 00"))  // UPDATE BINARY 0: NLEN 258, both bytes
        let f = ScriptedFrontend(maxCommandSize: 261, steps)  // room for Lc 255
        try Type4NDEF(target: isoTarget, frontend: f).writeMessage(long)
        #expect(f.isComplete)

        var tiny = type4Detection(cc: "00 0F 20 00 FF 00 01 04 06 E1 04 04 00 00 00 90 00", nlen: "00 00")
        for (i, b) in long.enumerated() {
            let offset = 2 + i
            tiny.append(.send("00 D6 \(hex2(offset)) 01 \(hex1(b))", "90 00"))  // UPDATE BINARY, 1 byte (MLc 1)
        }
        tiny.append(.send("00 D6 00 00 01 01", "90 00"))  // NLEN high byte
        tiny.append(.send("00 D6 00 01 01 02", "90 00"))  // NLEN low byte
        let g = ScriptedFrontend(tiny)
        try Type4NDEF(target: isoTarget, frontend: g).writeMessage(long)
        #expect(g.isComplete)
    }

    @Test func type4MakeReadOnlyWhenTheCCCannotBeSelected() {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 A4 00 0C 02 E1 03", "6A 82")  // SELECT CC file: not found
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f).makeReadOnly() } throws: { e in
            (e as? TagError)?.code == .cannotMakeReadOnly && (e as? TagError)?.statusWord == 0x6A82
        }
    }

    @Test func type4LinkLossDuringMakeReadOnlyIsAnRFError() {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
                .send("00 D6 00 0E 01 FF", .fail(.linkLost)),  // UPDATE BINARY offset 14: tag gone
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f).makeReadOnly() } throws: { e in
            (e as? TagError)?.rfError?.code == .linkLost
        }
        #expect(f.isComplete)
    }

    @Test func type4FormatWithoutNDEFApplicationIsUnsupportedAndRefusalIsRejection() {
        let none = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "6A 82"),  // SELECT NDEF application v2
            .send("00 A4 04 00 07 D2 76 00 00 85 01 00", "6A 82"),  // SELECT NDEF application v1
        ])
        #expect { try Type4NDEF(target: isoTarget, frontend: none).format() } throws: { e in
            (e as? TagError)?.code == .unsupported
        }
        let refused = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 D6 00 00 02 00 00", "69 82")  // UPDATE BINARY 0: security status not satisfied
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: refused).format() } throws: { e in
            (e as? TagError)?.code == .commandRejected
        }
    }

    @Test func lockBytesPastPage255AreRefusedBeforeTheCCIsTouched() {
        // A 1008-byte data area: the default dynamic lock bytes would sit at byte 1024, page 256.
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 7E 00 03 00 FE 00 00 00 00 00 00 00 00 00")  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).makeReadOnly() } throws: { e in
            (e as? TagError)?.code == .unsupported
        }
        #expect(f.isComplete)
    }

    @Test func type4NLENPastShortOffsetsIsUnsupported() {
        let f = ScriptedFrontend(
            type4Detection(cc: "00 0F 20 00 FF 00 FF 04 06 E1 04 FF FE 00 00 90 00", nlen: "80 00"))
        #expect { try Type4NDEF(target: isoTarget, frontend: f).detect() } throws: { e in
            (e as? TagError)?.code == .unsupported
        }
    }

    @Test func type4ACKInsteadOfAnAPDUIsInvalid() {
        let f = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", .ack)  // SELECT: a 4-bit ACK, not an R-APDU
        ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f).detect() } throws: { e in
            (e as? TagError)?.code == .invalidResponse
        }
    }
}

func hex1(_ b: UInt8) -> String { Hex.encode([b]) }
func hex2(_ v: Int) -> String { "\(hex1(UInt8(v >> 8))) \(hex1(UInt8(v & 0xFF)))" }
