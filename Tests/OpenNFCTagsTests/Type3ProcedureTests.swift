import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// An NFC-F target as a Polling answer reports it: IDm 01 02 … 08, a Lite-S PMm (IC code F1), and the system code
/// the poll asked for.
func type3Target(systemCode: UInt16? = 0x12FC, icCode: UInt8 = 0xF1) -> RFTarget {
    RFTarget(
        .nfcF(
            NFCFActivation(
                idm: h("0102030405060708"), pmm: [0x00, icCode, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00],
                systemCode: systemCode)))
}

private let idm = "0102030405060708"

/// Scripted transcripts of the Type 3 procedures (NFC Forum T3T 1.0 §7: attribute block, Check, Update).
@Suite struct Type3ProcedureTests {
    func frontend(_ transcript: String, maxResponseSize: Int = 256) -> ScriptedFrontend {
        ScriptedFrontend(maxResponseSize: maxResponseSize, technologies: [.nfcF], transcript: transcript)
    }

    /// Attribute block vectors recomputed from T3T 1.0 §7.1 (checksum = sum of bytes 0–13).
    @Test func attributeBlockChecksumAndFields() throws {
        let a = Type3Attribute(nbr: 4, nbw: 1, nmaxb: 13, writeF: 0, rw: 1, ln: 0)
        #expect(a.bytes == h("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 23"))
        #expect(try Type3Attribute.parse(h("10 01 01 00 01 00 00 00 00 00 00 00 00 10 00 23")).get().ln == 16)
        #expect(throws: Type3Attribute.NotNDEF.self) {
            try Type3Attribute.parse(h("10 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 24")).get()
        }
        #expect(throws: Type3Attribute.NotNDEF.self) {
            try Type3Attribute.parse(h("20 04 01 00 0D 00 00 00 00 00 01 00 00 00 00 33")).get()
        }
    }

    @Test func detectPollsTwelveFCOnlyWhenTheActivationDidNotAnswerIt() throws {
        var f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 00000100 00100033  # Ln 16
            """)
        #expect(
            try Type3NDEF(target: type3Target(), frontend: f).detect()
                == NDEFDetection(status: .readWrite, capacity: 208, messageLength: 16))
        #expect(f.isComplete)
        f = frontend(
            """
            00 12FC 01 00 -> TIMEOUT                    # the NDEF system code is not answered
            """)
        #expect(try Type3NDEF(target: type3Target(systemCode: 0x88B4), frontend: f).detect().status == .notSupported)
        #expect(f.isComplete)
    }

    @Test func readUsesNbrBlocksPerCheckAndTheFrontendLimit() throws {
        // Ln 40: blocks 1–3 in one Check (Nbr 4).
        let message: [UInt8] = [0xD5, 0x00, 37] + (0..<37).map { UInt8($0) }
        let blocks = message + [UInt8](repeating: 0, count: 8)
        var f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 00000100 0028004B
            06 \(idm) 01 0B00 03 8001 8002 8003 -> 07 \(idm) 0000 03 \(blocks.hexString)
            """)
        let p = Type3NDEF(target: type3Target(), frontend: f)
        #expect(try p.readMessage() == message)
        #expect(f.isComplete)
        // A frontend whose answers hold at most 2 blocks (12 + 32 = 44 bytes).
        f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 00000100 0028004B
            06 \(idm) 01 0B00 02 8001 8002 -> 07 \(idm) 0000 02 \(Array(blocks[0..<32]).hexString)
            06 \(idm) 01 0B00 01 8003 -> 07 \(idm) 0000 01 \(Array(blocks[32..<48]).hexString)
            """, maxResponseSize: 44)
        #expect(try Type3NDEF(target: type3Target(), frontend: f).readMessage() == message)
        #expect(f.isComplete)
    }

    @Test func writeIsWriteFThenDataThenAttributeWithTheNewLength() throws {
        let message = h("D1 01 04 54 02 65 6E 41")
        let f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 00000100 00000023
            08 \(idm) 01 0900 01 8000 10040100 0D000000 000F0100 00000032 -> 09 \(idm) 0000   # WriteF 0F, old Ln
            08 \(idm) 01 0900 01 8001 D1010454 02656E41 00000000 00000000 -> 09 \(idm) 0000
            08 \(idm) 01 0900 01 8000 10040100 0D000000 00000100 0008002B -> 09 \(idm) 0000   # WriteF 00, Ln 8
            """)
        try Type3NDEF(target: type3Target(), frontend: f).writeMessage(message)
        #expect(f.isComplete)
    }

    @Test func refusalsCarryTheStatusFlags() throws {
        let f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 00000100 00000023
            08 \(idm) 01 0900 01 8000 10040100 0D000000 000F0100 00000032 -> 09 \(idm) 01A8
            """)
        do {
            try Type3NDEF(target: type3Target(), frontend: f).writeMessage(h("D1 01 04 54 02 65 6E 41"))
            Issue.record("the write was refused")
        } catch {
            #expect(error.code == .commandRejected && error.feliCaStatus == [0x01, 0xA8])
        }
        #expect(f.isComplete)
    }

    @Test func aWriteInProgressIsTornNeverAMessage() throws {
        let f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 000F0100 0008003A
            """)
        let p = Type3NDEF(target: type3Target(), frontend: f)
        #expect(
            try p.detect()
                == NDEFDetection(
                    status: .readWrite, capacity: 208, messageLength: 0, reason: "write in progress (WriteF 0F)"))
        #expect(tagErrorCodeOf { () throws(TagError) in _ = try p.readMessage() } == .tornStateDetected)
        #expect(f.isComplete)
    }

    @Test func makeReadOnlyOnALiteSClearsRWThenLocksMC() throws {
        let f = frontend(
            """
            06 \(idm) 01 0B00 01 8000 -> 07 \(idm) 0000 01 10040100 0D000000 00000100 00000023
            08 \(idm) 01 0900 01 8000 10040100 0D000000 00000000 00000022 -> 09 \(idm) 0000  # RW 00
            06 \(idm) 01 0B00 01 8088 -> 07 \(idm) 0000 01 FFFFFF01 07000000 00000000 00000000
            08 \(idm) 01 0900 01 8088 00400001 07000000 00000000 00000000 -> 09 \(idm) 0000  # user bits, MC[2] 00
            """)
        try Type3NDEF(target: type3Target(), frontend: f).makeReadOnly()
        #expect(f.isComplete)
    }

    @Test func formatABlankLiteSEnablesNDEFAndWritesTheAttributeBlock() throws {
        let f = frontend(
            """
            06 \(idm) 01 0B00 01 8088 -> 07 \(idm) 0000 01 FFFFFF00 07000000 00000000 00000000
            08 \(idm) 01 0900 01 8088 FFFFFF01 07000000 00000000 00000000 -> 09 \(idm) 0000   # SYS_OP on
            08 \(idm) 01 0900 01 8000 10040100 0D000000 00000100 00000023 -> 09 \(idm) 0000
            """)
        try Type3NDEF(target: type3Target(systemCode: 0x88B4), frontend: f).format()
        #expect(f.isComplete)
        let other = frontend("")
        #expect(
            tagErrorCodeOf { () throws(TagError) in
                try Type3NDEF(target: type3Target(icCode: 0x01), frontend: other).format()
            }
                == .unsupported)
    }

    @Test func identificationMakesEveryNFCFTargetType3ButNFCDEP() throws {
        let f = frontend("")
        #expect(try TagIdentifier.identify(target: type3Target(), frontend: f).kind == .type3)
        let p2p = RFTarget(.nfcF(NFCFActivation(idm: h("01FE030405060708"), pmm: h("C0C1C2C3C4C5C6C7"))))
        guard case .unsupported = try TagIdentifier.identify(target: p2p, frontend: f).kind else {
            Issue.record("an NFC-DEP device is not a Type 3 tag")
            return
        }
    }
}

private func tagErrorCodeOf(_ body: () throws(TagError) -> Void) -> TagError.Code? {
    do {
        try body()
        return nil
    } catch {
        return error.code
    }
}
