import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// `NFCISO15693Tag.customCommand` and `sendRequest` against the virtual NXP ICODE SLIX2 and ST25DV04K through a tag
/// reader session on the simulated iPhone: the NXP password, page protection, EAS, system information and signature
/// commands and the ST configuration and area passwords, answered positively, with their frames checked on the air.
@Suite struct ISO15693CustomCommandPhoneTests {
    typealias T = ISO15693TagTests

    /// The last GET RANDOM NUMBER answer, shared between steps.
    final class Random: @unchecked Sendable {
        var bytes: [UInt8] = [0, 0]
        /// `password` (most significant byte first) as SET PASSWORD carries it: LSB first, XORed with the random.
        func xor(_ password: [UInt8]) -> [UInt8] {
            password.reversed().enumerated().map { i, b in b ^ bytes[i % 2] }
        }
    }

    static func custom(
        _ code: Int, _ parameters: [UInt8], _ label: String, random: Random? = nil
    ) -> T.Step {
        { _, t, log in
            t.customCommand(requestFlags: T.hd, customCommandCode: code, customRequestParameters: Data(parameters)) {
                d, e in
                if let random, e == nil { random.bytes = [UInt8](d) }
                log("\(label) \(hex(d)) \(T.outcome(e))")
            }
        }
    }

    static func setPassword(_ id: UInt8, _ password: [UInt8], _ random: Random, _ label: String) -> T.Step {
        { _, t, log in
            t.customCommand(
                requestFlags: T.hd, customCommandCode: 0xB3,
                customRequestParameters: Data([id] + random.xor(password))
            ) { d, e in log("\(label) \(hex(d)) \(T.outcome(e))") }
        }
    }

    @Test func nxpPasswordsPageProtectionEASAndSignatureOnTheSLIX2() throws {
        let phone = VirtualPhone(recordsFrames: true)
        let uid = T.uid(.icodeSLIX2)
        let chip = try ISO15693Tag.factory(.icodeSLIX2, uid: uid)
        phone.put(chip)
        let random = Random()
        let zero: [UInt8] = [0, 0, 0, 0]
        let lines = T.run(
            phone,
            [
                Self.custom(0xB2, [], "random", random: random),
                Self.setPassword(0x01, zero, random, "read password"),
                Self.custom(0xB2, [], "random", random: random),
                Self.setPassword(0x02, zero, random, "write password"),
                Self.custom(0xB6, [0x04, 0x31], "protect page"),
                Self.custom(0xAB, [], "nxp info"),
                Self.custom(0xB8, [0x03, 0x01], "protection status"),
                // The passwords are presented in this session: the protected high page reads and writes.
                { _, t, log in
                    t.writeSingleBlock(requestFlags: T.hd, blockNumber: 4, dataBlock: Data([9, 8, 7, 6])) {
                        log("write 4 \(T.outcome($0))")
                    }
                },
                { _, t, log in
                    t.readSingleBlock(requestFlags: T.hd, blockNumber: 4) { d, e in
                        log("read 4 \(hex(d)) \(T.outcome(e))")
                    }
                },
                Self.custom(0xA2, [], "set eas"),
                Self.custom(0xA5, [], "alarm"),
                Self.custom(0xBD, [], "signature"),
                { _, t, log in
                    // The raw form: the app writes flags, code, manufacturer code and UID itself.
                    t.sendRequest(requestFlags: 0x22, commandCode: 0xB2, data: Data([0x04] + uid.reversed())) { r in
                        switch r {
                        case .success(let (f, d)): log("raw random flags \(f.rawValue) \(d?.count ?? 0) bytes")
                        case .failure(let e): log("raw random \(T.outcome(e))")
                        }
                    }
                },
                Self.custom(0xB4, [0x05, 1, 2, 3, 4], "write unknown password"),
            ])
        #expect(lines.count == 15, "\(lines)")
        guard lines.count == 15 else { return }
        #expect(lines[0] == "connect ok")
        #expect(lines[1].hasPrefix("random ") && lines[1].hasSuffix(" ok") && lines[1].count == 7 + 4 + 3)
        #expect(
            Array(lines[2...9]) == [
                "read password  ok", lines[3], "write password  ok", "protect page  ok", "nxp info 0431001F310000 ok",
                "protection status 0103 ok", "write 4 ok", "read 4 09080706 ok",
            ])
        #expect(lines[10] == "set eas  ok")
        #expect(lines[11] == "alarm \(hex(Data(ISO15693Tag.easSequence))) ok")
        #expect(lines[12] == "signature \(hex(Data(chip.nxp.signature))) ok")
        #expect(lines[13] == "raw random flags 0 2 bytes")
        #expect(lines[14] == "write unknown password  102 iso 0F")
        #expect(chip.nxp.protectionPointer == 4 && chip.nxp.protectionCondition == 0x31 && chip.nxp.eas)
        // ISO/IEC 15693-3 §10.5 on the air: flags, code, manufacturer code 04, the UID LSB first, the parameters.
        let lsb = uid.reversed().map { String(format: "%02X", $0) }.joined(separator: " ")
        let air = phone.transcriptText([.rf])
        #expect(air.contains("→ 22 B6 04 \(lsb) 04 31"))
        #expect(air.contains("→ 22 B2 04 \(lsb)"))
        #expect(air.contains("→ 22 BD 04 \(lsb)"))
    }

    @Test func aProtectedPageWithoutItsPasswordIs102WithTheTagsError() throws {
        let phone = VirtualPhone(recordsFrames: true)
        let chip = try ISO15693Tag.factory(.icodeSLIX2, uid: T.uid(.icodeSLIX2))
        chip.nxp.protectionPointer = 0x04
        chip.nxp.protectionCondition = 0x30
        phone.put(chip)
        let lines = T.run(
            phone,
            [
                { _, t, log in
                    t.readSingleBlock(requestFlags: T.hd, blockNumber: 4) { d, e in
                        log("read 4 \(hex(d)) \(T.outcome(e))")
                    }
                },
                { _, t, log in
                    t.readSingleBlock(requestFlags: T.hd, blockNumber: 0) { d, e in
                        log("read 0 \(hex(d)) \(T.outcome(e))")
                    }
                },
                Self.custom(0xB6, [0x00, 0x00], "protect page"),
            ])
        #expect(lines == ["connect ok", "read 4  102 iso 0F", "read 0 E1402701 ok", "protect page  102 iso 0F"])
    }

    @Test func st25dvConfigurationAndAreaPasswordsThroughCustomCommand() throws {
        let phone = VirtualPhone(recordsFrames: true)
        let uid = T.uid(.st25dv04k)
        let chip = try ISO15693Tag.factory(.st25dv04k, uid: uid)
        phone.put(chip)
        let zero = [UInt8](repeating: 0, count: 8)
        let lines = T.run(
            phone,
            [
                Self.custom(0xA0, [0x05], "read ENDA1"),
                Self.custom(0xA1, [0x05, 0x00], "write ENDA1 without session"),
                Self.custom(0xB3, [0x00] + zero, "present configuration password"),
                Self.custom(0xA1, [0x05, 0x00], "write ENDA1"),
                Self.custom(0xA1, [0x06, 0x09], "write RFA2SS"),
                Self.custom(0xAD, [0x02], "read EH_CTRL_Dyn"),
                Self.custom(0xC0, [0x00], "fast read 0"),
                Self.custom(0xB3, [0x01] + [UInt8](repeating: 1, count: 8), "present a wrong password"),
                // The wrong password closed every session: area 2 (from block 8) is read protected now.
                { _, t, log in
                    t.readSingleBlock(requestFlags: T.hd, blockNumber: 8) { d, e in
                        log("read 8 \(hex(d)) \(T.outcome(e))")
                    }
                },
                Self.custom(0xB3, [0x01] + zero, "present area password 1"),
                { _, t, log in
                    t.readSingleBlock(requestFlags: T.hd, blockNumber: 8) { d, e in
                        log("read 8 \(hex(d)) \(T.outcome(e))")
                    }
                },
            ])
        #expect(
            lines == [
                "connect ok", "read ENDA1 0F ok", "write ENDA1 without session  102 iso 0F",
                "present configuration password  ok", "write ENDA1  ok", "write RFA2SS  ok", "read EH_CTRL_Dyn 04 ok",
                "fast read 0 E1404001 ok", "present a wrong password  102 iso 0F", "read 8  102 iso 15",
                "present area password 1  ok", "read 8 00000000 ok",
            ])
        let lsb = uid.reversed().map { String(format: "%02X", $0) }.joined(separator: " ")
        #expect(phone.transcriptText([.rf]).contains("→ 22 A1 02 \(lsb) 06 09"))
        #expect(chip.st25.configuration[5] == 0x00 && chip.st25.configuration[6] == 0x09)
    }
}
