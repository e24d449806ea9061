import OpenNFCRF
import OpenNFCTestSupport
import Testing

@testable import OpenNFCTags

/// Formatting a blank DESFire: the command vectors are AOSP's, (AOSP rw_t4t.c; the procedure of NXP AN11004)
@Suite struct DESFireFormatTests {
    static let ev1 = DESFireVersion(
        hardware: h("04 01 01 01 00 18 05"), software: h("04 01 01 01 04 18 05"),
        production: h("04 1F 5B 92 DA 2C 80 BA 34 98 BA D0 29 12"))!

    static let noNDEFApplication: [ScriptedFrontend.Step] = [
        .send("00 A4 04 00 07 D2 76 00 00 85 01 01 00", "6A 82"),  // SELECT NDEF application v2: none
        .send("00 A4 04 00 07 D2 76 00 00 85 01 00", "6A 82"),  // SELECT NDEF application v1: none
    ]

    static func creation(app: String = "91 00", cc: String = "91 00", ndef: String = "91 00")
        -> [ScriptedFrontend.Step]
    {
        [
            .send("90 5A 00 00 03 00 00 00 00", "91 00"),  // SelectApplication PICC
            .send("90 CA 00 00 0E 01 00 00 0F 21 05 E1 D2 76 00 00 85 01 01 00", app),  // CreateApplication 000001
            .send("90 5A 00 00 03 01 00 00 00", "91 00"),  // SelectApplication 000001
            .send("90 CD 00 00 09 01 03 E1 00 EE EE 0F 00 00 00", cc),  // CreateStdDataFile 1 (CC, 15 bytes)
            .send("90 CD 00 00 09 02 04 E1 00 EE EE 00 10 00 00", ndef),  // CreateStdDataFile 2 (NDEF, 4096)
            .send("90 3D 00 00 09 02 00 00 00 02 00 00 00 00 00", "91 00"),  // WriteData file 2: NLEN 0
            .send(
                "90 3D 00 00 16 01 00 00 00 0F 00 00 00 0F 20 00 3B 00 34 04 06 E1 04 10 00 00 00 00",
                "91 00"),  // WriteData file 1: the CC, last
        ]
    }

    @Test func blankEV1GetsTheAndroidNDEFMapping() throws {
        let f = ScriptedFrontend(
            Self.noNDEFApplication + Self.creation()
                + type4Detection(cc: "00 0F 20 00 3B 00 34 04 06 E1 04 10 00 00 00 90 00", nlen: "00 00"))
        let p = Type4NDEF(target: isoTarget, frontend: f, desfire: Self.ev1)
        try p.format()
        #expect(try p.detect() == NDEFDetection(status: .readWrite, capacity: 4094, messageLength: 0))
        #expect(f.isComplete)
    }

    @Test func formattingAgainAfterAnInterruptionTakesDuplicatesAsDone() throws {
        let f = ScriptedFrontend(Self.noNDEFApplication + Self.creation(app: "91 DE", cc: "91 DE", ndef: "91 DE"))
        try Type4NDEF(target: isoTarget, frontend: f, desfire: Self.ev1).format()
        #expect(f.isComplete)
    }

    @Test func aPICCThatNeedsItsMasterKeyIsARejection() {
        let f = ScriptedFrontend(
            Self.noNDEFApplication + [
                .send("90 5A 00 00 03 00 00 00 00", "91 00"),  // SelectApplication PICC
                .send("90 CA 00 00 0E 01 00 00 0F 21 05 E1 D2 76 00 00 85 01 01 00", "91 AE"),  // CreateApplication
            ])
        #expect { try Type4NDEF(target: isoTarget, frontend: f, desfire: Self.ev1).format() } throws: { e in
            (e as? TagError)?.code == .commandRejected && (e as? TagError)?.statusWord == 0x91AE
        }
        #expect(f.isComplete)
    }

    @Test func anEV0OrANonDESFireCardIsNotFormatted() {
        let ev0 = DESFireVersion(
            hardware: h("04 01 01 00 02 18 05"), software: h("04 01 01 00 06 18 05"),
            production: h("04 1F 5B 92 DA 2C 80 BA 34 98 BA D0 29 12"))!
        for desfire in [ev0, nil] as [DESFireVersion?] {
            let f = ScriptedFrontend(Self.noNDEFApplication)
            #expect { try Type4NDEF(target: isoTarget, frontend: f, desfire: desfire).format() } throws: { e in
                (e as? TagError)?.code == .unsupported
            }
        }
    }

    @Test func ndefFileSizePerStorage() {
        #expect(Type4NDEF.desfireNDEFFileSize(storage: 2048) == 2048)
        #expect(Type4NDEF.desfireNDEFFileSize(storage: 4096) == 4096)
        #expect(Type4NDEF.desfireNDEFFileSize(storage: 8192) == 7680)
    }
}
