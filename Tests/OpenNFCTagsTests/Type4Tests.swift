import OpenNFCBytes
import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

let isoTarget = RFTarget.nfcA(
    uid: h("04 1F 5B 92 DA 2C 80"), sensRes: 0x0344, selRes: 0x20, ats: h("06 75 77 81 02 80")
)

/// The CC of nfcpy's Type 4 test tag (NFC Forum T4T 2.0 §5.4): mapping 2.0, MLe 0x3B, MLc 0x34, NDEF file E104 of
/// 0x40 bytes, read and write granted.
let nfcpyCC = "00 0F 20 00 3B 00 34 04 06 E1 04 00 40 00 00 90 00"

/// The first five steps of nfcpy's detection trace, our CC read taking the 15 bytes in one READ BINARY.
func type4Detection(cc: String = nfcpyCC, nlen: String) -> [ScriptedFrontend.Step] {
    [
        .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "90 00"),  // SELECT NDEF application (v2)
        .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
        .send("00 B0 00 00 0F", cc),  // READ BINARY CC, 15 bytes
        .send("00 A4 00 0C 02 E1 04", "90 00"),  // SELECT NDEF file
        .send("00 B0 00 00 02", nlen + " 90 00"),  // READ BINARY NLEN
    ]
}

@Suite struct Type4DetectReadTests {
    @Test func nfcpyTraceDetectsAndReads() throws {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 B0 00 02 0E", nfcpyURI + h("90 00"))  // READ BINARY offset 2: the message
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        // Capacity = file size − NLEN = 0x40 − 2 = 62.
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 62, messageLength: 14))
        #expect(try p.readMessage() == nfcpyURI)
        #expect(try p.readMessage() == nfcpyURI)  // remembered: no second READ
        #expect(f.isComplete)
    }

    @Test func readsInChunksOfMLe() throws {
        // MLe 0x0F: a 20-byte message takes two READ BINARY (15 + 5).
        let message = h("D1 01 10 54 02 65 6E") + [UInt8](repeating: 0x41, count: 13)
        let f = ScriptedFrontend(
            type4Detection(cc: "00 0F 20 00 0F 00 34 04 06 E1 04 00 40 00 00 90 00", nlen: "00 14") + [
                .send("00 B0 00 02 0F", Array(message[0..<15]) + h("90 00")),  // READ BINARY offset 2, 15 bytes
                .send("00 B0 00 11 05", Array(message[15...]) + h("90 00")),  // READ BINARY offset 17, 5 bytes
            ])
        #expect(try Type4NDEF(target: isoTarget, frontend: f).readMessage() == message)
        #expect(f.isComplete)
    }

    @Test func readChunksAlsoFitTheFrontend() throws {
        // MLe 0x3B but the frontend returns at most 12 bytes (10 data + SW).
        let g = ScriptedFrontend(
            maxResponseSize: 12,
            [
                .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "90 00"),  // SELECT NDEF application (v2)
                .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
                .send("00 B0 00 00 0F", nfcpyCC),  // READ BINARY CC (the CC read is 15 bytes whatever the chunk)
                .send("00 A4 00 0C 02 E1 04", "90 00"),  // SELECT NDEF file
                .send("00 B0 00 00 02", "00 0E 90 00"),  // READ BINARY NLEN
                .send("00 B0 00 02 0A", Array(nfcpyURI[0..<10]) + h("90 00")),  // READ BINARY offset 2, 10 bytes
                .send("00 B0 00 0C 04", Array(nfcpyURI[10...]) + h("90 00")),  // READ BINARY offset 12, 4 bytes
            ])
        #expect(try Type4NDEF(target: isoTarget, frontend: g).readMessage() == nfcpyURI)
        #expect(g.isComplete)
    }

    @Test func v1ApplicationIsTheFallback() throws {
        let f = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "6A 82"),  // SELECT NDEF application v2: not found
            .send("00 A4 04 00 07 D2 76 00 00 85 01 00", "90 00"),  // SELECT NDEF application v1
            .send("00 A4 00 00 02 E1 03", "90 00"),  // SELECT CC file (v1: P2 00)
            .send("00 B0 00 00 0F", "00 0F 10 00 3B 00 34 04 06 E1 04 00 40 00 FF 90 00"),  // READ BINARY CC
            .send("00 A4 00 00 02 E1 04", "90 00"),  // SELECT NDEF file (v1)
            .send("00 B0 00 00 02", "00 00 90 00"),  // READ BINARY NLEN: empty
        ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        #expect(try p.detect() == NDEFDetection(status: .readOnly, capacity: 62, messageLength: 0))
        #expect(try p.readMessage() == [])
        #expect(f.isComplete)
    }

    @Test func noNDEFApplicationIsNotSupported() throws {
        let f = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "6A 82"),  // SELECT NDEF application v2
            .send("00 A4 04 00 07 D2 76 00 00 85 01 00", "6A 82"),  // SELECT NDEF application v1
        ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        let d = try p.detect()
        #expect(d.status == .notSupported)
        #expect(d.reason?.contains("6A82") == true)
        #expect { try p.readMessage() } throws: { ($0 as? TagError)?.code == .notFormatted }
        #expect(f.isComplete)
    }

    @Test(arguments: [
        ("00 0F 40 00 3B 00 34 04 06 E1 04 00 40 00 00 90 00", "major"),  // mapping 4.0
        ("00 0F 20 00 0E 00 34 04 06 E1 04 00 40 00 00 90 00", "MLe"),  // MLe 14
        ("00 0F 20 00 3B 00 34 05 06 E1 04 00 40 00 00 90 00", "File Control"),  // wrong TLV
        ("00 0F 20 00 3B 00 34 04 06 E1 03 00 40 00 00 90 00", "reserved"),  // file ID E103
        ("00 0F 20 00 3B 00 34 04 06 E1 04 00 40 80 00 90 00", "read access"),  // proprietary read
        ("00 0F 20 00 3B 00 34 90 00", "fewer than 15"),  // short CC
    ])
    func badCCIsNotSupported(cc: String, reason: String) throws {
        let f = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "90 00"),  // SELECT NDEF application (v2)
            .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
            .send("00 B0 00 00 0F", cc),  // READ BINARY CC
        ])
        let d = try Type4NDEF(target: isoTarget, frontend: f).detect()
        #expect(d.status == .notSupported)
        #expect(d.reason?.contains(reason) == true)
        #expect(f.isComplete)
    }

    @Test func nlenBeyondTheFileIsATornState() {
        let f = ScriptedFrontend(type4Detection(nlen: "00 3F"))  // 63 > 62
        #expect { try Type4NDEF(target: isoTarget, frontend: f).detect() } throws: {
            ($0 as? TagError)?.code == .tornStateDetected
        }
    }

    @Test func refusedReadIsACommandRejection() {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 B0 00 02 0E", "69 82")  // READ BINARY offset 2: security status not satisfied
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f).readMessage() } throws: { e in
            (e as? TagError)?.code == .commandRejected && (e as? TagError)?.statusWord == 0x6982
        }
    }

    @Test func malformedAndMissingAnswers() {
        let short = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "90")  // SELECT: 1 byte, no status word
        ])
        #expect { try Type4NDEF(target: isoTarget, frontend: short).detect() } throws: {
            ($0 as? TagError)?.code == .invalidResponse
        }
        let truncated = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 B0 00 02 0E", "D1 01 90 00")  // READ BINARY offset 2: 2 bytes instead of 14
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: truncated).readMessage() } throws: {
            ($0 as? TagError)?.code == .invalidResponse
        }
        let timeout = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", .fail(.timeout))  // SELECT: no answer
        ])
        #expect { try Type4NDEF(target: isoTarget, frontend: timeout).detect() } throws: {
            ($0 as? TagError)?.rfError?.code == .timeout
        }
        #expect(timeout.isComplete)  // not repeated
    }
}

@Suite struct Type4WriteTests {
    @Test func nlenZeroRidesWithTheFirstChunkAndNLENComesLast() throws {
        // MLc 0x34 = 52: NLEN 00 00 + 14 bytes fit one UPDATE BINARY; then NLEN.
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 D6 00 00 0A 00 00 D1 01 04 54 02 65 6E 41", "90 00"),  // UPDATE BINARY 0: NLEN 0 + message
                .send("00 D6 00 01 01 08", "90 00"),  // UPDATE BINARY 1: NLEN low byte 8 (high byte is 0)
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        try p.writeMessage(textA)
        #expect(try p.readMessage() == textA)
        #expect(try p.detect().messageLength == 8)
        #expect(f.isComplete)
    }

    @Test func onAnEmptyFileTheDataStartsAtOffset2() throws {
        let f = ScriptedFrontend(
            type4Detection(cc: "00 0F 20 00 3B 00 05 04 06 E1 04 00 40 00 00 90 00", nlen: "00 00") + [
                .send("00 D6 00 02 05 D1 01 04 54 02", "90 00"),  // UPDATE BINARY 2: 5 bytes (MLc 5)
                .send("00 D6 00 07 03 65 6E 41", "90 00"),  // UPDATE BINARY 7: 3 bytes
                .send("00 D6 00 01 01 08", "90 00"),  // UPDATE BINARY 1: NLEN low byte 8 (high byte is 0)
            ])
        try Type4NDEF(target: isoTarget, frontend: f).writeMessage(textA)
        #expect(f.isComplete)
    }

    @Test func refusalsBeforeAnyWrite() throws {
        let f = ScriptedFrontend(type4Detection(nlen: "00 00"))
        let p = Type4NDEF(target: isoTarget, frontend: f)
        #expect { try p.writeMessage([]) } throws: { ($0 as? TagError)?.code == .emptyMessage }
        #expect { try p.writeMessage([UInt8](repeating: 0, count: 63)) } throws: {
            ($0 as? TagError)?.code == .capacityExceeded
        }
        let ro = ScriptedFrontend(
            type4Detection(cc: "00 0F 20 00 3B 00 34 04 06 E1 04 00 40 00 FF 90 00", nlen: "00 00"))
        #expect { try Type4NDEF(target: isoTarget, frontend: ro).writeMessage(textA) } throws: {
            ($0 as? TagError)?.code == .readOnly
        }
        #expect(f.isComplete && ro.isComplete)
    }

    @Test func aRefusedUpdateStopsWithoutRetry() {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 D6 00 00 0A 00 00 D1 01 04 54 02 65 6E 41", "6A 82")  // UPDATE BINARY: file not found
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f).writeMessage(textA) } throws: { e in
            (e as? TagError)?.code == .commandRejected && (e as? TagError)?.statusWord == 0x6A82
        }
        #expect(f.isComplete)
    }

    @Test func makeReadOnlyWritesTheCCWriteAccessByte() throws {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
                .send("00 D6 00 0E 01 FF", "90 00"),  // UPDATE BINARY offset 14: write access FF
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        try p.makeReadOnly()
        #expect(try p.detect().status == .readOnly)
        #expect { try p.writeMessage(textA) } throws: { ($0 as? TagError)?.code == .readOnly }
        #expect(f.isComplete)
    }

    @Test func aCardRefusingTheCCUpdateCannotBeMadeReadOnly() {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
                .send("00 D6 00 0E 01 FF", "69 82"),  // UPDATE BINARY offset 14: security status not satisfied
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f).makeReadOnly() } throws: { e in
            (e as? TagError)?.code == .cannotMakeReadOnly && (e as? TagError)?.statusWord == 0x6982
        }
        #expect(f.isComplete)
    }

    @Test func readAfterMakeReadOnlySelectsTheNDEFFileAgain() throws {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
                .send("00 D6 00 0E 01 FF", "90 00"),  // UPDATE BINARY offset 14: write access FF
                .send("00 A4 00 0C 02 E1 04", "90 00"),  // SELECT NDEF file again
                .send("00 B0 00 02 0E", nfcpyURI + h("90 00")),  // READ BINARY offset 2
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        try p.makeReadOnly()
        #expect(try p.readMessage() == nfcpyURI)
        #expect(f.isComplete)
    }

    @Test func formatEmptiesTheFile() throws {
        let f = ScriptedFrontend(
            type4Detection(nlen: "00 0E") + [
                .send("00 D6 00 00 02 00 00", "90 00")  // UPDATE BINARY 0: NLEN 0
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        try p.format()
        #expect(try p.readMessage() == [])
        #expect(f.isComplete)
    }
}

/// Mapping 3.0 (NFC Forum T4T 1.0 (2017)) from the reader's side: the ENDEF File Control TLV and the 4-byte ENLEN.
@Suite struct Type4Mapping3Tests {
    /// CC of a mapping 3.0 tag: CCLEN 17, MLe = MLc = 255, ENDEF TLV `06 08`, file E104 of 0x00010000 bytes.
    static let cc15 = "00 11 30 00 FF 00 FF 06 08 E1 04 00 01 00 00 90 00"

    static func detection(enlen: String, access: String = "00 00") -> [ScriptedFrontend.Step] {
        [
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "90 00"),  // SELECT NDEF application
            .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
            .send("00 B0 00 00 0F", cc15),  // READ BINARY CC, 15 bytes: T = 06 announces 2 more
            .send("00 B0 00 0F 02", access + " 90 00"),  // READ BINARY CC offset 15: read and write access
            .send("00 A4 00 0C 02 E1 04", "90 00"),  // SELECT NDEF file
            .send("00 B0 00 00 04", enlen + " 90 00"),  // READ BINARY ENLEN (4 bytes)
        ]
    }

    @Test func detectsReadsAndEmptiesAnENDEFFile() throws {
        let f = ScriptedFrontend(
            Self.detection(enlen: "00 00 00 0E") + [
                .send("00 B0 00 04 0E", nfcpyURI + h("90 00")),  // READ BINARY offset 4: the message
                .send("00 D6 00 00 04 00 00 00 00", "90 00"),  // format: ENLEN = 0 (4 bytes)
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        // Capacity: the file less ENLEN, 65536 − 4.
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 65_532, messageLength: 14))
        #expect(try p.readMessage() == nfcpyURI)
        try p.format()
        #expect(f.isComplete)
    }

    @Test func writesWithENLENZeroFirstAndItsLowBytesLast() throws {
        let message = nfcpyURI
        let f = ScriptedFrontend(
            Self.detection(enlen: "00 00 01 00") + [
                // ENLEN 0 with the message after it, then ENLEN's one non-zero byte alone (offset 3).
                .send("00 D6 00 00 12 00 00 00 00" + Hex.encode(message), "90 00"),
                .send("00 D6 00 03 01 0E", "90 00"),
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        try p.writeMessage(message)
        #expect(f.isComplete)
    }

    @Test func makeReadOnlyWritesTheENDEFWriteAccessByte() throws {
        let f = ScriptedFrontend(
            Self.detection(enlen: "00 00 00 00") + [
                .send("00 A4 00 0C 02 E1 03", "90 00"),  // SELECT CC file
                .send("00 D6 00 10 01 FF", "90 00"),  // write access at CC offset 16 (after a 4-byte size)
            ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        try p.makeReadOnly()
        #expect(try p.detect().status == .readOnly)
        #expect(f.isComplete)
    }

    @Test func anENLENPastTheFileIsATornState() throws {
        let f = ScriptedFrontend(Self.detection(enlen: "00 01 00 00"))
        let p = Type4NDEF(target: isoTarget, frontend: f)
        #expect(throws: TagError.self) { try p.detect() }
        #expect(f.isComplete)
    }

    @Test func anENDEFTLVUnderMapping2IsNotNDEF() throws {
        let f = ScriptedFrontend([
            .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "90 00"),
            .send("00 A4 00 0C 02 E1 03", "90 00"),
            .send("00 B0 00 00 0F", "00 11 20 00 FF 00 FF 06 08 E1 04 00 01 00 00 90 00"),
            .send("00 B0 00 0F 02", "00 00 90 00"),
        ])
        let p = Type4NDEF(target: isoTarget, frontend: f)
        #expect(try p.detect().status == .notSupported)
        #expect(f.isComplete)
    }
}
