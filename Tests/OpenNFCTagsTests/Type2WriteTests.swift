import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// Text record "A" in English: `D1 01 04 54 02 65 6E 41` (NDEF Text RTD).
let textA = h("D1 01 04 54 02 65 6E 41")

@Suite struct Type2WriteTests {
    /// NTAG213 holding the nfcpy URI, overwritten with an 8-byte message: the length goes to 0 first (with the new
    /// first byte riding along), then the data, then the length.
    @Test func tearSafeOrderOverAnOldMessage() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("A2 05 34 03 00 D1", .ack),  // WRITE page 5: length 0 (message hidden), first byte
            .send("A2 06 01 04 54 02", .ack),  // WRITE page 6: message
            .send("A2 07 65 6E 41 FE", .ack),  // WRITE page 7: message end + Terminator
            .send("A2 05 34 03 08 D1", .ack),  // WRITE page 5: length 8, committing the message
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        try p.writeMessage(textA)
        #expect(try p.readMessage() == textA)  // known from the writes: no frame
        #expect(try p.detect().messageLength == 8)
        #expect(f.isComplete)
    }

    @Test func onAnEmptyTagTheLengthIsWrittenOnceAtTheEnd() throws {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3
            .send("A2 06 01 04 54 02", .ack),  // WRITE page 6: message
            .send("A2 07 65 6E 41 FE", .ack),  // WRITE page 7: message end + Terminator
            .send("A2 05 34 03 08 D1", .ack),  // WRITE page 5: length 8 and the first byte
        ])
        try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).writeMessage(textA)
        #expect(f.isComplete)
    }

    @Test func rewritingTheSameMessageSendsNothing() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("3A 07 09", "6E 66 63 70 79 2E 6F 72 67 FE 00 00"),  // FAST_READ pages 7–9
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        let m = try p.readMessage()
        try p.writeMessage(m)
        #expect(f.isComplete)
    }

    @Test func aChangeConfinedToTheLengthPageIsOneAtomicWrite() throws {
        // 48-byte tag: page 4 `03 05 D1 01`, page 5 `01 54 41 FE`. The new message differs in page 4 only, so one
        // WRITE (atomic: old or new) replaces it; no zero-length step is needed.
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 06 00 03 05 D1 01 01 54 41 FE 00 00 00 00"),  // READ page 3
            .send("A2 04 03 05 D2 01", .ack),  // WRITE page 4: the only changed page
        ])
        try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).writeMessage(h("D2 01 01 54 41"))
        #expect(f.isComplete)
    }

    @Test func emptyTooLargeAndReadOnlyAreRefusedBeforeAnyWrite() throws {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6)  // READ page 3
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect { try p.writeMessage([]) } throws: { ($0 as? TagError)?.code == .emptyMessage }
        #expect { try p.writeMessage([UInt8](repeating: 0xD1, count: 138)) } throws: {
            ($0 as? TagError)?.code == .capacityExceeded
        }
        #expect(f.isComplete)
    }

    @Test func aNAKedWriteStopsAndForgetsTheLayout() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("A2 05 34 03 00 D1", .ack),  // WRITE page 5: length 0
            .send("A2 06 01 04 54 02", .nak(0)),  // WRITE page 6: refused (locked page)
            .activate,  // the NAK muted the tag: the test re-activates it as a session would
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect { try p.writeMessage(textA) } throws: { e in
            (e as? TagError)?.code == .commandRejected && (e as? TagError)?.nak == 0
        }
        _ = try f.activate(ntagTarget)
        // Page 5 (zero length) was acknowledged, page 6 forgotten: detection re-walks from the image, no READ.
        #expect(try p.detect().messageLength == 0)
        #expect(f.isComplete)
    }

    @Test func aWriteThatTimesOutIsNeverRepeated() {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3
            .send("A2 06 01 04 54 02", .fail(.timeout)),  // WRITE page 6: no ACK (written or not: unknown)
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).writeMessage(textA) } throws: {
            e in (e as? TagError)?.rfError?.code == .timeout
        }
        #expect(f.isComplete)
    }

    @Test func anAnswerOtherThanACKIsInvalid() {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3
            .send("A2 06 01 04 54 02", "01 02 03 04"),  // WRITE page 6: data instead of ACK
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f).writeMessage(textA) } throws: {
            e in (e as? TagError)?.code == .invalidResponse
        }
    }

    @Test func pagesMixingReservedBytesKeepThem() throws {
        // Memory Control TLV `02 03 62 02 02`: bytes 26–27 (page 6 × 4 + 2, 2 bytes) are reserved and hold AA BB.
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 06 00 02 03 62 02 02 03 00 FE 00 00 AA BB"),  // READ page 3
            .send("A2 06 01 04 AA BB", .ack),  // WRITE page 6: message bytes around the reserved AA BB
            .send("A2 07 54 02 65 6E", .ack),  // WRITE page 7: message
            .send("A2 08 41 FE 00 00", .ack),  // WRITE page 8: message end + Terminator
            .send("A2 05 02 03 08 D1", .ack),  // WRITE page 5: length 8 (was 0: no zero step)
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .generic, frontend: f)
        // 48 − 5 (TLV) − 1 (tag) − 2 (reserved) − 1 (length) = 39.
        #expect(try p.detect().capacity == 39)
        try p.writeMessage(textA)
        #expect(f.isComplete)
    }
}
