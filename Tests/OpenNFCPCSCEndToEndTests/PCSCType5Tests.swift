import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

extension EndToEndSuite {
    /// Virtual ISO 15693 tags served by `opennfc emulate`'s card server through the real pcscd: the Part 3 ATR
    /// (standard `0B`), the UID, the PC/SC 2.02 transparent session carrying every request, the Part 3 READ/UPDATE
    /// BINARY by block, the Type 5 NDEF procedures over both, and a write torn by the tag leaving.
    @Suite struct PCSCType5Tests {
        static let uids: [String: [UInt8]] = [
            "icode-slix": h("E004010812345678"), "icode-slix2": h("E004010912345678"),
            "st25dv04k": h("E002240012345678"), "st25dv64k": h("E002260012345678"),
            "tagit-hfi-plus": h("E007800012345678"),
        ]
        let textHi = h("D101055402656E6869")

        func tag(_ profile: ISO15693ChipProfile) throws -> ISO15693Tag {
            try ISO15693Tag.factory(profile, uid: Self.uids[profile.name]!, holding: textHi)
        }

        @Test(arguments: ISO15693ChipProfile.all)
        func ndefThroughATransparentSession(profile: ISO15693ChipProfile) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try tag(profile)
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            let target = try f.activate(try #require(f.poll([.nfcV]).first))
            let atr = try #require(f.card(for: target)?.atr)
            #expect(atr[12] == 0x0B)  // ISO 15693 part 3
            #expect(target.identifier == tag.uid)
            #expect(f.activeProfile is TransparentSessionProfile)
            // A raw Get System Information: flags 00, then the info flags and the UID LSB first.
            let info = try f.exchange([0x22, 0x2B] + tag.uid.reversed())
            guard case .frame(let bytes) = info else { throw RFError(.protocolViolation, "no frame") }
            #expect(bytes.first == 0x00 && Array(bytes[2..<10]) == tag.uid.reversed())
            let ndef = Type5NDEF(uid: target.identifier, frontend: f)
            #expect(try ndef.readMessage() == textHi)
            let message = h("D1010F5402656E") + Array("hello, PC/SC".utf8)
            try ndef.writeMessage(message)
            f.deactivate()
            #expect(tag.ndefMessage == message)
        }

        @Test(arguments: ISO15693ChipProfile.all)
        func ndefThroughPart3ReadAndUpdateBinary(profile: ISO15693ChipProfile) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try tag(profile)
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader, profile: ISO15693StorageCardProfile())
            let target = try f.activate(try #require(f.poll([.nfcV]).first))
            #expect(f.activeProfile is ISO15693StorageCardProfile)
            let ndef = Type5NDEF(uid: target.identifier, frontend: f)
            #expect(try ndef.readMessage() == textHi)
            let message = h("D101115402656E") + Array("by block, Part 3".utf8)
            try ndef.writeMessage(message)
            f.deactivate()
            #expect(tag.ndefMessage == message)
            // Lock Block has no Part 3 form.
            _ = try f.activate(target)
            #expect(throws: RFError.self) { try f.exchange([0x22, 0x22] + tag.uid.reversed() + [0x05]) }
            f.deactivate()
        }

        @Test func tornWriteLeavesTheOldMessageAndTheTagReadsAgain() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try tag(.icodeSLIX)
            // The tag leaves during the first block write the procedure sends.
            let slot = try EmulatedSlot(tag) { apdu in
                apdu.count > 7 && Array(apdu.prefix(4)) == [0xFF, 0xC2, 0x00, 0x01] && apdu.contains(0x21)
                    ? .tear(afterBytes: 0) : .none
            }
            let context = try PCSCContext()
            let f = PCSCFrontend(context: context, reader: slot.reader)
            let target = try f.activate(try #require(f.poll([.nfcV]).first))
            let ndef = Type5NDEF(uid: target.identifier, frontend: f)
            #expect(throws: TagError.self) { try ndef.writeMessage(h("D101035402656E6F6B")) }
            #expect(slot.hasLeft())
            #expect(try context.waitForRemoval(on: slot.reader, timeoutMilliseconds: 5000))
            let again = try EmulatedSlot(tag)
            defer { try? again.remove() }
            let t2 = try f.activate(try #require(f.poll([.nfcV]).first))
            #expect(try Type5NDEF(uid: t2.identifier, frontend: f).readMessage() == textHi)
            f.deactivate()
        }
    }
}
