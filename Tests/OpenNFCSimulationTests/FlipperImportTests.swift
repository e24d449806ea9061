import Foundation
import OpenNFCSimulation
import Testing

/// Flipper `.nfc` files written by hand from the format description (landscape.md §4.1, from flipperzero-firmware
/// documentation/file_formats/NfcFileFormats.md), not produced by a Flipper.
@Suite struct FlipperImportTests {
    static let ultralightEV1 = """
        Filetype: Flipper NFC device
        Version: 4
        # Device type can be ISO14443-3A, ISO14443-3B, ISO14443-4A, NTAG/Ultralight, ...
        Device type: NTAG/Ultralight
        # UID is common for all formats
        UID: 04 A1 B2 C3 D4 E5 F6
        # ISO14443-3A specific data
        ATQA: 00 44
        SAK: 00
        # NTAG/Ultralight specific data
        Data format version: 2
        NTAG/Ultralight type: Mifare Ultralight 11
        Signature: 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF 00 11 22 33 44 55 66 77 88 99 AA BB CC DD EE FF 00
        Mifare version: 00 04 03 01 01 00 0B 03
        Counter 0: 7
        Tearing 0: BD
        Counter 1: 0
        Tearing 1: BD
        Counter 2: 16777215
        Tearing 2: 00
        Pages total: 20
        Pages read: 20
        Page 0: 04 A1 B2 9F
        Page 1: C3 D4 E5 F6
        Page 2: 34 48 00 00
        Page 3: E1 10 06 00
        Page 4: 03 03 D0 00
        Page 5: 00 FE 00 00
        Page 6: 00 00 00 00
        Page 7: 00 00 00 00
        Page 8: 00 00 00 00
        Page 9: 00 00 00 00
        Page 10: 00 00 00 00
        Page 11: 00 00 00 00
        Page 12: 00 00 00 00
        Page 13: 00 00 00 00
        Page 14: 00 00 00 00
        Page 15: 00 00 00 00
        Page 16: 00 00 00 FF
        Page 17: 00 05 00 00
        Page 18: ?? ?? ?? ??
        Page 19: 00 00 00 00
        Failed authentication attempts: 2

        """

    @Test func version4UltralightEV1() throws {
        let tag = try FlipperNFCFile.decode(Self.ultralightEV1)
        #expect(tag.profile == .ultralightEV1_48)
        #expect(tag.uid == [0x04, 0xA1, 0xB2, 0xC3, 0xD4, 0xE5, 0xF6])
        #expect(tag.counters == [7, 0, 0xFF_FFFF])
        #expect(tag.tearingFlags == [0xBD, 0xBD, 0x00])
        #expect(tag.failedAuthentications == 2)
        #expect(tag.signature.prefix(3) == [0x11, 0x22, 0x33])
        #expect(tag.ndefMessage == [0xD0, 0x00, 0x00])
        expectTranscript(
            tag,
            """
            39 02 -> FFFFFF
            3E 02 -> 00
            1B 00 00 00 00 -> 0000      # '??' password bytes read as 00
            """)
    }

    @Test func version2NTAG213WithPartialReadAndLSBFirstATQA() throws {
        let text = """
            Filetype: Flipper NFC device
            Version: 2
            Device type: NTAG213
            UID: 04 01 02 03 04 05 06
            ATQA: 44 00
            SAK: 00
            Pages total: 45
            Pages read: 6
            Page 0: 04 01 02 8F
            Page 1: 03 04 05 06
            Page 2: 04 48 00 00
            Page 3: E1 10 12 00
            Page 4: 01 03 A0 0C
            Page 5: 34 03 00 FE
            """
        let tag = try FlipperNFCFile.decode(text)
        #expect(tag.profile == .ntag213)
        #expect(Array(tag.memory[0..<24]) == Array(factoryTag(.ntag213).memory[0..<24]))
        #expect(tag.memory[24...].allSatisfy { $0 == 0 })  // pages not read are zero
    }

    @Test func errorsNameTheLine() {
        func error(_ text: String) -> String {
            do {
                _ = try FlipperNFCFile.decode(text)
                return "no error"
            } catch {
                return error.description
            }
        }
        let good = Self.ultralightEV1
        #expect(
            error(good.replacingOccurrences(of: "Page 7: 00 00 00 00", with: "Page 7: 00 00 0"))
                == "line 30: field 'Page 7': not hex: odd number of hex digits at character 6")
        #expect(
            error(good.replacingOccurrences(of: "Page 7: 00 00 00 00", with: "Page 7: 00 00 00"))
                == "line 30: field 'Page 7': expected 4 bytes, found 3")
        #expect(
            error(good.replacingOccurrences(of: "Page 7: 00 00 00 00", with: "Page 27: 00 00 00 00"))
                == "line 30: field 'Page 27': page beyond the last page (19)")
        #expect(
            error(good.replacingOccurrences(of: "Device type: NTAG/Ultralight", with: "Device type: Mifare Classic"))
                == "line 4: field 'Device type': device type 'Mifare Classic' is not an NTAG/Ultralight chip this simulator has"
        )
        #expect(
            error(good.replacingOccurrences(of: "Counter 0: 7", with: "Counter 0: seven"))
                == "line 15: field 'Counter 0': expected a whole number from 0 to 16777215")
        #expect(
            error(good.replacingOccurrences(of: "UID: 04 A1 B2 C3 D4 E5 F6", with: "UID: 04 A1 B2 C3 D4 E5 F7"))
                == "line 6: field 'UID': UID does not match pages 0-1")
        #expect(
            error(good.replacingOccurrences(of: "Version: 4", with: "Version: 9"))
                == "line 2: field 'Version': version '9' is not supported (2 to 4 are)")
        #expect(error("hello") == "line 1: expected 'Key: value'")
        #expect(error("Filetype: Flipper NFC device\n") == "field 'Version': missing")
    }
}
