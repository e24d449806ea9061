import OpenNFCRF
import Testing

@testable import OpenNFCTags

/// A Topaz 512 / Topaz 96 as a PN532-style frontend reports it: UID0–UID3, SENS_RES 0C00h, no SEL_RES, HR0/HR1.
func type1Target(hr0: UInt8 = 0x12, hr1: UInt8 = 0x4C) -> RFTarget {
    RFTarget(
        .nfcA(
            NFCAActivation(
                uid: h("01 02 03 04"), sensRes: 0x0C00, selRes: nil,
                type1: NFCAActivation.Type1Header(hr0: hr0, hr1: hr1))))
}

/// The RALL answer of a factory Topaz 512 (UID 01 02 03 04 05 06 07): CC `E1 10 3F 00`, Lock Control TLV
/// `01 03 F2 30 33`, Memory Control TLV `02 03 F0 02 03`, empty NDEF TLV at byte 22 (T1T 1.2 format of a dynamic
/// tag, as shipped).
let topaz512RALL =
    "12 4C 01 02 03 04 05 06 07 00 E1 10 3F 00 01 03 F2 30 33 02 03 F0 02 03 03 00"
    + String(repeating: " 00", count: 96)
let topaz96RALL = "11 48 01 02 03 04 05 06 07 00 E1 10 0E 00 03 00" + String(repeating: " 00", count: 106)
let uidEcho = " 01 02 03 04"

/// Scripted transcripts of the Type 1 procedures (NFC Forum T1T 1.2 detection, read, write, read-only).
@Suite struct Type1ProcedureTests {
    @Test func detectIsOneRALL() throws {
        let f = ScriptedFrontend([.send("00 00 00" + uidEcho, topaz512RALL)])
        let d = try Type1NDEF(target: type1Target(), frontend: f).detect()
        // 465 usable bytes after the NDEF TLV's tag byte (23–103, 128–511): 3-byte length ⇒ 462.
        #expect(d == NDEFDetection(status: .readWrite, capacity: 462, messageLength: 0))
        #expect(f.isComplete)
    }

    @Test func staticDetectAndCapacity() throws {
        let f = ScriptedFrontend([.send("00 00 00" + uidEcho, topaz96RALL)])
        let d = try Type1NDEF(target: type1Target(hr0: 0x11, hr1: 0x48), frontend: f).detect()
        // Bytes 13–103: 91 after the tag byte ⇒ 90 with a 1-byte length.
        #expect(d == NDEFDetection(status: .readWrite, capacity: 90, messageLength: 0))
        #expect(f.isComplete)
    }

    @Test func ridOnlyWithoutAUID() throws {
        let f = ScriptedFrontend([
            .send("78 00 00 00 00 00 00", "12 4C 01 02 03 04"),
            .send("00 00 00" + uidEcho, topaz512RALL),
        ])
        let target = RFTarget(.nfcA(NFCAActivation(uid: [], sensRes: 0x0C00, selRes: nil)))
        #expect(try Type1NDEF(target: target, frontend: f).detect().status == .readWrite)
        #expect(f.isComplete)
    }

    @Test func writeOntoTheFactoryTag() throws {
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, topaz512RALL),
            .send("54 03 D1 01 04 54 02 65 6E 41" + uidEcho, "03 D1 01 04 54 02 65 6E 41"),  // the message block
            .send("53 17 08" + uidEcho, "17 08"),  // then the length alone: WRITE-E of byte 23
        ])
        let p = Type1NDEF(target: type1Target(), frontend: f)
        try p.writeMessage(textA)
        #expect(try p.readMessage() == textA)
        #expect(f.isComplete)
    }

    @Test func overwriteHidesTheOldMessageFirst() throws {
        var rall = h(topaz512RALL)
        for (i, b) in ([0x08] + textA).enumerated() { rall[2 + 23 + i] = b }
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, .data(rall)),
            .send("53 17 00" + uidEcho, "17 00"),  // length 0
            .send("53 1F 42" + uidEcho, "1F 42"),  // the one changed message byte
            .send("53 17 08" + uidEcho, "17 08"),  // length 8
        ])
        let p = Type1NDEF(target: type1Target(), frontend: f)
        #expect(try p.readMessage() == textA)
        try p.writeMessage(h("D1 01 04 54 02 65 6E 42"))
        #expect(f.isComplete)
    }

    @Test func staticWriteIsOneWriteEPerByteLengthLast() throws {
        let body = textA.enumerated().map { i, b in
            ScriptedFrontend.Step(command: [0x53, UInt8(14 + i), b] + h(uidEcho), reply: .data([UInt8(14 + i), b]))
        }
        let f = ScriptedFrontend(
            [.send("00 00 00" + uidEcho, topaz96RALL)] + body + [.send("53 0D 08" + uidEcho, "0D 08")])
        try Type1NDEF(target: type1Target(hr0: 0x11, hr1: 0x48), frontend: f).writeMessage(textA)
        #expect(f.isComplete)
    }

    @Test func readPastTheStaticAreaUsesRSEG() throws {
        // A 300-byte message: TLV at 22, `FF 01 2C`, bytes 26–103 then 128–349 (segments 1 and 2).
        var rall = h(topaz512RALL)
        rall[2 + 23] = 0xFF
        rall[2 + 24] = 0x01
        rall[2 + 25] = 0x2C
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, .data(rall)),
            .send("10 10 00 00 00 00 00 00 00 00" + uidEcho, .data([0x10] + [UInt8](repeating: 0, count: 128))),
            .send("10 20 00 00 00 00 00 00 00 00" + uidEcho, .data([0x20] + [UInt8](repeating: 0, count: 128))),
        ])
        let p = Type1NDEF(target: type1Target(), frontend: f)
        #expect(throws: TagError.self) { try p.readMessage() }  // 300 zero bytes are no NDEF message
        #expect(f.isComplete)
    }

    @Test func aLockedBlockIsARefusedWrite() throws {
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, topaz512RALL),
            .send("54 03 D1 01 04 54 02 65 6E 41" + uidEcho, "03 00 00 00 00 00 00 00 00"),  // echoes the old block
        ])
        #expect(throws: TagError.self) {
            try Type1NDEF(target: type1Target(), frontend: f).writeMessage(textA)
        }
        #expect(f.isComplete)
    }

    @Test func makeReadOnlyDynamic() throws {
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, topaz512RALL),
            .send("1A 0B 0F" + uidEcho, "0B 0F"),  // CC3: write access none
            .send("1B 0E FF FF 00 00 00 00 00 00" + uidEcho, "0E FF FF 00 00 00 00 00 00"),  // LOCK0, LOCK1
            .send("1B 0F 00 00 FF FF FF FF FF FF" + uidEcho, "0F 00 00 FF FF FF FF FF FF"),  // dynamic lock bytes
        ])
        try Type1NDEF(target: type1Target(), frontend: f).makeReadOnly()
        #expect(f.isComplete)
    }

    @Test func makeReadOnlyStatic() throws {
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, topaz96RALL),
            .send("1A 0B 0F" + uidEcho, "0B 0F"),
            .send("1A 70 FF" + uidEcho, "70 FF"),
            .send("1A 71 FF" + uidEcho, "71 7F"),  // LOCK1 bit 7 locks nothing: a chip may keep it clear
        ])
        try Type1NDEF(target: type1Target(hr0: 0x11, hr1: 0x48), frontend: f).makeReadOnly()
        #expect(f.isComplete)
    }

    @Test func formatABlankDynamicTagWritesTheMagicNumberLast() throws {
        let blank = "12 4C 01 02 03 04 05 06 07 00" + String(repeating: " 00", count: 112)
        let f = ScriptedFrontend([
            .send("00 00 00" + uidEcho, blank),
            .send("53 18 FE" + uidEcho, "18 FE"),  // block 3 holds only the Terminator: WRITE-E
            .send("54 02 33 02 03 F0 02 03 03 00" + uidEcho, "02 33 02 03 F0 02 03 03 00"),  // block 2
            .send("54 01 00 10 3F 00 01 03 F2 30" + uidEcho, "01 00 10 3F 00 01 03 F2 30"),  // CC without magic
            .send("53 08 E1" + uidEcho, "08 E1"),  // NMN last
        ])
        let p = Type1NDEF(target: type1Target(), frontend: f)
        try p.format()
        #expect(f.isComplete)
    }

    @Test func notNDEFAndRefusals() throws {
        let blank = "12 4C 01 02 03 04 05 06 07 00" + String(repeating: " 00", count: 112)
        let f = ScriptedFrontend([.send("00 00 00" + uidEcho, blank)])
        let p = Type1NDEF(target: type1Target(), frontend: f)
        #expect(try p.detect().status == .notSupported)
        #expect(throws: TagError.self) { try p.readMessage() }
        #expect(f.isComplete)

        var readOnlyRALL = h(topaz512RALL)
        readOnlyRALL[2 + 11] = 0x0F
        let readOnly = ScriptedFrontend([
            .send("00 00 00" + uidEcho, .data(readOnlyRALL))
        ])
        do throws(TagError) {
            try Type1NDEF(target: type1Target(), frontend: readOnly).writeMessage(textA)
            Issue.record("a read-only tag was written")
        } catch {
            #expect(error.code == .readOnly)
        }
        #expect(readOnly.isComplete)

        let wrongHR = ScriptedFrontend([.send("00 00 00" + uidEcho, topaz512RALL)])
        do throws(TagError) {
            _ = try Type1NDEF(target: type1Target(hr0: 0x11, hr1: 0x48), frontend: wrongHR).detect()
            Issue.record("an HR0 mismatch was accepted")
        } catch {
            #expect(error.code == .invalidResponse)
        }
    }
}
