import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

extension EndToEndSuite {
    /// The NFC Forum reader procedures (OpenNFCTags), unchanged, over the PC/SC frontend, pcscd and our emulated tags:
    /// identification, NDEF detect, read, write and lock, with raw pass-through and with Part 3 pseudo-APDUs only.
    @Suite struct PCSCProcedureTests {
        /// A Text record "hello, PC/SC" (en), encoded by hand from NFC Forum RTD Text §3.
        let newMessage = [0xD1, 0x01, 0x0F, 0x54, 0x02, 0x65, 0x6E] + Array("hello, PC/SC".utf8)

        func procedure(_ f: PCSCFrontend) throws -> (IdentifiedTag, any NDEFTagProcedure) {
            let target = try f.activate(try #require(f.poll([.nfcA]).first))
            let tag = try TagIdentifier.identify(target: target, frontend: f)
            return (tag, try #require(tag.ndefProcedure(frontend: f)))
        }

        @Test(arguments: [false, true])
        func ntagReadWriteLock(part3Only: Bool) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }

            let f = PCSCFrontend(
                context: try PCSCContext(), reader: slot.reader, profile: part3Only ? StorageCardProfile() : nil)
            let (identified, ndef) = try procedure(f)
            // Through pass-through the NTAG215 is recognised by GET_VERSION; through Part 3 only it is a generic Type 2.
            #expect(identified.kind.description == (part3Only ? "type2" : "ntag215"))
            let detection = try ndef.detect()
            #expect(detection.status == .readWrite)
            #expect(detection.messageLength == textHi.count)
            #expect(try ndef.readMessage() == textHi)

            try ndef.writeMessage(newMessage)
            #expect(try ndef.readMessage() == newMessage)
            f.deactivate()

            // A fresh activation reads what the tag stores.
            let (_, again) = try procedure(f)
            #expect(try again.readMessage() == newMessage)
            try again.makeReadOnly()
            #expect(try again.detect().status == .readOnly)
            f.deactivate()
            #expect(tag.isLocked(4))
            #expect(Array(tag.memory[12..<16]).last == 0x0F)  // CC3: write access 0F = none
        }

        @Test func type4ReadWrite() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let t4 = try type4()
            let slot = try EmulatedSlot(t4, slot: 1)
            defer { try? slot.remove() }

            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            let (identified, ndef) = try procedure(f)
            #expect(identified.kind == .iso7816)
            #expect(identified.historicalBytes == [0x80])
            #expect(try ndef.detect().status == .readWrite)
            #expect(try ndef.readMessage() == textHi)
            try ndef.writeMessage(newMessage)
            #expect(t4.ndefMessage == newMessage)
            #expect(try ndef.readMessage() == newMessage)
            f.deactivate()
        }
    }
}
