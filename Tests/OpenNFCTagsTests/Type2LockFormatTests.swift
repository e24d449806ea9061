import OpenNFCRF
import Testing

@testable import OpenNFCTags

@Suite struct Type2LockTests {
    @Test func ntag213CCThenStaticThenDynamicLockPage() throws {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3
            .send("A2 03 E1 10 12 0F", .ack),  // WRITE CC: write access 0F (read-only from here on)
            .send("A2 02 00 00 FF FF", .ack),  // WRITE page 2: static lock and block-lock bits
            .send("A2 28 FF FF FF 00", .ack),  // WRITE page 0x28: dynamic lock and block-lock bits
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        try p.makeReadOnly()
        #expect(try p.detect().status == .readOnly)
        #expect { try p.writeMessage(textA) } throws: { ($0 as? TagError)?.code == .readOnly }
        #expect(f.isComplete)
    }

    /// nfcpy's test vector (NFC Forum T2T §7): 64-byte data area, no Lock Control TLV ⇒ 2 lock bits at byte 80.
    @Test func genericTagUsesTheDefaultLockArea() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 08 00 03 00 FE 00 00 00 00 00 00 00 00 00"),  // READ page 3
            .send("A2 03 E1 10 08 0F", .ack),  // WRITE CC: read-only
            .send("A2 02 00 00 FF FF", .ack),  // WRITE page 2: static lock bits
            .send("30 11", "00 00 00 00 00 00 00 00 00 00 00 00 00 7A 00 00"),  // READ page 0x11 (0x11–0x14)
            .send("A2 14 03 7A 00 00", .ack),  // WRITE page 0x14: 2 dynamic lock bits, byte 81 kept
        ])
        try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).makeReadOnly()
        #expect(f.isComplete)
    }

    /// nfcpy's test vector with a Lock Control TLV `01 03 A0 10 23`: 16 bits at byte 10 × 8 = 80.
    @Test func lockControlTLVDecidesTheDynamicBits() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 08 00 01 03 A0 10 23 03 00 FE 00 00 00 00"),  // READ page 3
            .send("A2 03 E1 10 08 0F", .ack),  // WRITE CC: read-only
            .send("A2 02 00 00 FF FF", .ack),  // WRITE page 2: static lock bits
            .send("30 11", [UInt8](repeating: 0, count: 16)),  // READ page 0x11: the lock page's other bytes
            .send("A2 14 FF FF 00 00", .ack),  // WRITE page 0x14: 16 dynamic lock bits
        ])
        try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).makeReadOnly()
        #expect(f.isComplete)
    }

    @Test func aRefusedStaticLockLeavesAReadOnlyTag() throws {
        let f = ScriptedFrontend([
            .send("30 03", ntag213FactoryPages3to6),  // READ page 3
            .send("A2 03 E1 10 12 0F", .ack),  // WRITE CC: read-only
            .send("A2 02 00 00 FF FF", .nak(0)),  // WRITE page 2: refused
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect { try p.makeReadOnly() } throws: { ($0 as? TagError)?.code == .commandRejected }
        #expect(f.isComplete)
    }
}

@Suite struct Type2FormatTests {
    @Test func blankNTAG213GetsItsFactoryTLVsThenTheCC() throws {
        let f = ScriptedFrontend([
            .send("30 03", [UInt8](repeating: 0, count: 16)),  // READ page 3: blank
            .send("A2 04 01 03 A0 0C", .ack),  // WRITE page 4: Lock Control TLV
            .send("A2 05 34 03 00 FE", .ack),  // WRITE page 5: empty NDEF TLV, Terminator
            .send("A2 03 E1 10 12 00", .ack),  // WRITE CC last: NDEF from here on
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        try p.format()
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 137, messageLength: 0))
        #expect(f.isComplete)  // detection needs no READ: pages 3–5 are known from the writes
    }

    @Test func formattingAnNDEFTagEmptiesIt() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 0E D1 01 0A 55 03"),  // READ page 3
            .send("A2 05 34 03 00 FE", .ack),  // WRITE page 5: length 0 + Terminator
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        try p.format()
        #expect(try p.readMessage() == [])
        #expect(f.isComplete)
    }

    /// A write torn inside the NDEF TLV's 3-byte length leaves `03 FF 05 00`: 1280 bytes on a 144-byte data area.
    /// format() repairs it itself: the factory TLV area, last page first (page 4 already holds the Lock Control TLV
    /// and is not written).
    @Test func aTornTLVStructureIsRepairedByFormat() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 12 00 01 03 A0 0C 34 03 FF 05 00 D1 01 0A"),  // READ page 3: NDEF TLV of 1280
            .send("A2 05 34 03 00 FE", .ack),  // WRITE page 5: empty NDEF TLV, Terminator
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag213, frontend: f)
        #expect(throws: TagError.self) { try p.detect() }
        try p.format()
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 137, messageLength: 0))
        #expect(f.isComplete)
    }

    @Test func aTornTLVOnNTAG215IsRewrittenFromTheLastPage() throws {
        let f = ScriptedFrontend([
            .send("30 03", "E1 10 3E 00 03 FF 7F FF 00 00 00 00 00 00 00 00"),  // READ page 3: NDEF TLV of 32767
            .send("A2 04 03 00 FE 00", .ack),  // WRITE page 4: empty NDEF TLV, Terminator
        ])
        let p = Type2NDEF(target: ntagTarget, chip: .ntag215, frontend: f)
        try p.format()
        #expect(try p.readMessage() == [])
        #expect(f.isComplete)
    }

    @Test func anOTPCCWithOtherContentCannotBeFormatted() {
        let f = ScriptedFrontend([
            .send("30 03", "F1 10 FF EE 00 00 00 00 00 00 00 00 00 00 00 00")  // READ page 3
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .ntag215, frontend: f).format() } throws: {
            ($0 as? TagError)?.code == .unsupported
        }
    }

    @Test func aChipOfUnknownSizeCannotBeFormatted() {
        let f = ScriptedFrontend([
            .send("30 03", [UInt8](repeating: 0, count: 16))  // READ page 3: blank
        ])
        #expect { try Type2NDEF(target: ntagTarget, chip: .generic, frontend: f).format() } throws: {
            ($0 as? TagError)?.code == .unsupported
        }
    }
}
