import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

extension EndToEndSuite {
    /// A virtual DESFire EV1 with AES keys served by `opennfc emulate`'s card server through the real pcscd: the
    /// reader's DESFire procedures (ISO-wrapped `90 CMD 00 00 Lc … 00`, passed to the card by the vpcd card)
    /// authenticate, read an enciphered value and records, and run a committed transaction (MF3ICD81).
    @Suite struct PCSCDESFireTests {
        static let key: [UInt8] = Array(0x50...0x5F)

        @Test func aesSessionValueAndRecordFilesOverPCSC() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let card = try DESFireEV1Tag(
                uid: [0x04, 0x51, 0x52, 0x53, 0x54, 0x55, 0x56],
                applications: [
                    DESFireApplication(
                        aid: 0x00_00_42, keyCount: 0x81,
                        files: [
                            .valueFile(
                                number: 1, communicationSettings: 0x03, accessRights: 0x0000, lower: 0, upper: 900,
                                value: 250),
                            .recordFile(
                                number: 2, communicationSettings: 0x01, accessRights: 0x0000, recordSize: 6,
                                maxRecords: 4, records: [Array("entry1".utf8)]),
                        ],
                        keys: [try DESFireKey(.aes, bytes: Self.key)])
                ])
            let slot = try EmulatedSlot(card, slot: 1)
            defer { try? slot.remove() }
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let identified = try TagIdentifier.identify(target: target, frontend: f)
            guard case .desfire = identified.kind else {
                Issue.record("identified as \(identified.kind)")
                return
            }
            let s = DESFireSecureSession(target: target, frontend: f, random: SeededRandomSource(seed: 3))
            try s.select(0x42)
            try s.authenticate(keyNumber: 0, key: try DESFireCardKey(.aes, value: Self.key))
            #expect(try s.getValue(file: 1, communication: 0x03) == 250)
            try s.debit(file: 1, amount: 50, communication: 0x03)
            try s.writeRecord(file: 2, data: Array("entry2".utf8), communication: 0x01)
            try s.commitTransaction()
            #expect(try s.getValue(file: 1, communication: 0x03) == 200)
            #expect(
                try s.readRecords(file: 2, recordSize: 6, communication: 0x01) == [
                    Array("entry1".utf8), Array("entry2".utf8),
                ])
            f.deactivate()
            #expect(card.applications[0].files[0].value == 200)
        }
    }
}

extension EndToEndSuite {
    /// A virtual Ultralight C (MF0ICU2) through the real pcscd: the Part 3 ATR names it (card name `00 3A`), and
    /// the 3DES three-pass authentication runs in PN532 pass-through frames (InCommunicateThru), after which the
    /// protected NDEF pages read as on any Type 2 tag.
    @Suite struct PCSCUltralightCTests {
        static let key: [UInt8] = Array(0x20...0x2F)

        @Test func atrNamesUltralightCAndAuthenticationOpensProtectedPages() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let message: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69]
            let chip = try Type2Tag.factory(
                .ultralightC, uid: [0x04, 0x61, 0x62, 0x63, 0x64, 0x65, 0x66], holding: message)
            try chip.setUltralightCKey(Self.key)
            try chip.setUltralightCAccess(auth0: 0x04, protectReads: true)
            chip.random = SeededRandomSource(seed: 8)
            let slot = try EmulatedSlot(chip, slot: 1)
            defer { try? slot.remove() }
            let context = try PCSCContext()
            let f = PCSCFrontend(context: context, reader: slot.reader)
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let atr = try #require(f.card(for: target)?.atr)
            #expect(Array(atr.suffix(8).prefix(3)) == [0x03, 0x00, 0x3A])  // SS 03, card name 00 3A (Ultralight C)
            var wrongKey: TagError?
            do {
                try UltralightCAuthentication(target: target, frontend: f, random: SeededRandomSource(seed: 4))
                    .authenticate(key: UltralightCAuthentication.factoryKey)
            } catch {
                wrongKey = error
            }
            #expect(wrongKey != nil)  // the factory key is not this chip's: refused
            f.deactivate()
            let again = try TagIdentifier.identify(
                target: try f.activate(try #require(f.poll([.nfcA]).first)), frontend: f)
            try UltralightCAuthentication(target: again.target, frontend: f, random: SeededRandomSource(seed: 4))
                .authenticate(key: Self.key)
            let p = try #require(again.ndefProcedure(frontend: f))
            #expect(try p.readMessage() == message)
            f.deactivate()
        }
    }
}
