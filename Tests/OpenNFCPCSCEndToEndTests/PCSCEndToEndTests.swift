import OpenNFCBytes
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import OpenNFCVPCD
import Testing

extension EndToEndSuite {
    /// Our PC/SC backend against the real pcscd, with virtual tags served on the vsmartcard virtual reader by our card
    /// server. Each test takes the slots' lock, serves its tags, and removes them before it ends.
    @Suite struct PCSCEndToEndTests {
        @Test func bothVirtualReadersAreListed() throws {
            let context = try PCSCContext()
            let readers = try context.readers()
            #expect(readers.contains(EndToEnd.readers[0]))
            #expect(readers.contains(EndToEnd.readers[1]))
        }

        @Test func uidATRAndPassThroughReadOfAnNTAG() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }

            let context = try PCSCContext()
            let state = try context.states(of: [slot.reader])[0]
            #expect(state.atr == h("3B8F8001804F0CA0000003060300030000000068"))
            #expect(ContactlessCard(atrBytes: state.atr) == .storage(standard: 0x03, cardName: 0x0003))

            let f = PCSCFrontend(context: context, reader: slot.reader)
            let targets = try f.poll([.nfcA])
            #expect(targets.map(\.identifier) == [h("04A1B2C3D4E580")])
            _ = try f.activate(targets[0])
            defer { f.deactivate() }
            #expect(f.activeProfile is ACR122UPassThroughProfile)
            #expect(f.capabilities.rawFrames)
            #expect(f.activeVersion?.chipName == "NTAG215")
            // CC and the start of the NDEF TLV, as the chip stores them.
            #expect(try f.exchange([0x30, 0x03]) == .frame(Array(tag.memory[12..<28])))
            #expect(try f.exchange([0x3A, 0x04, 0x05]) == .frame(Array(tag.memory[16..<24])))  // FAST_READ 4–5
            #expect(try f.exchange([0x1B, 0xFF, 0xFF, 0xFF, 0xFF]) == .frame([0x00, 0x00]))  // PWD_AUTH, factory PACK
            #expect(try f.exchange([0x3C, 0x00]) == .frame(tag.signature))  // READ_SIG
        }

        @Test func part3PseudoAPDUsReadAndWrite() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }

            let context = try PCSCContext()
            let card = try context.connect(reader: slot.reader)
            defer { card.disconnect() }
            #expect(try card.transmit(h("FFCA000000")) == APDUResponse(data: h("04A1B2C3D4E580"), sw1: 0x90, sw2: 0x00))
            #expect(try card.transmit(h("FFB0000410")).data == Array(tag.memory[16..<32]))
            #expect(try card.transmit(h("FFD6000504CAFEBABE")).isSuccess)
            #expect(slot.server.withCard { _ in Array(tag.memory[20..<24]) } == h("CAFEBABE"))
            #expect(try card.transmit(h("FFB0000504")).data == h("CAFEBABE"))
            // Refused: page 0 is read-only (UID); the reader re-selects the tag, which answers again.
            #expect(try card.transmit(h("FFD600000400000000")).sw == 0x6300)
            #expect(try card.transmit(h("FFB0000004")).data == Array(tag.memory[0..<4]))
            // Unsupported pseudo-APDU and class.
            #expect(try card.transmit(h("FF82000006FFFFFFFFFFFF")).sw == 0x6A81)
            #expect(try card.transmit(h("00A4040007D276000085010100")).sw == 0x6E00)
            #expect(try card.transmit(h("FFCA010000")).sw == 0x6A81)
        }

        @Test func storageCardProfileOverPCSCMatchesPassThrough() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }

            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader, profile: StorageCardProfile())
            _ = try f.activate(try f.poll([.nfcA])[0])
            #expect(!f.capabilities.rawFrames)
            #expect(try f.exchange([0x30, 0x04]) == .frame(Array(tag.memory[16..<32])))
            #expect(try f.exchange([0xA2, 0x06, 1, 2, 3, 4]) == .ack)
            #expect(try f.exchange([0x30, 0x06]).description.hasPrefix("01020304"))
            #expect(throws: RFError.self) { try f.exchange([0x60]) }
            f.deactivate()
        }

        @Test func lockBitsMakePagesReadOnly() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }

            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            _ = try f.activate(try f.poll([.nfcA])[0])
            // Static lock bytes (page 2, bytes 2–3): lock pages 3–15 (T2T §2.2.3 / NTAG21x §8.5.2).
            let page2 = Array(tag.memory[8..<12])
            #expect(try f.exchange([0xA2, 0x02, page2[0], page2[1], 0xFF, 0xFF]) == .ack)
            #expect(try f.exchange([0xA2, 0x04, 0, 0, 0, 0]) == .nak(0))
            f.deactivate()
            _ = try f.activate(try f.poll([.nfcA])[0])
            #expect(try f.exchange([0x30, 0x02]).description.hasPrefix(Hex.encode(page2[0..<2]) + "FFFF"))
            #expect(tag.isLocked(4))
            f.deactivate()
        }

        @Test(arguments: [(2, false), (4, true)])
        func tornWriteLosesTheConnectionAndLeavesAWholePage(tearAfter: Int, committed: Bool) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let before = Array(tag.memory[20..<24])
            let slot = try EmulatedSlot(tag) { apdu in
                // The tag leaves while writing page 5.
                apdu == ACR122UPassThroughProfile.wrap([0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF])
                    ? .tear(afterBytes: tearAfter) : .none
            }
            let context = try PCSCContext()
            let f = PCSCFrontend(context: context, reader: slot.reader)
            _ = try f.activate(try f.poll([.nfcA])[0])
            #expect {
                _ = try f.exchange([0xA2, 0x05, 0xDE, 0xAD, 0xBE, 0xEF])
            } throws: { ($0 as! RFError).code == .linkLost }
            #expect(slot.hasLeft())
            #expect(try context.waitForRemoval(on: slot.reader, timeoutMilliseconds: 5000))
            #expect(try f.poll([.nfcA]).isEmpty)

            // The tag comes back: the page holds the old or the new bytes, never a mix.
            let again = try EmulatedSlot(tag)
            defer { try? again.remove() }
            _ = try f.activate(try f.poll([.nfcA])[0])
            let page5 = try f.exchange([0x30, 0x05])
            #expect(page5.description.hasPrefix(committed ? "DEADBEEF" : Hex.encode(before)))
            f.deactivate()
        }

        @Test func cardRemovedMidAPDU() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let slot = try EmulatedSlot(try ntag215()) { apdu in apdu == h("FFB0000810") ? .leave : .none }
            let context = try PCSCContext()
            let card = try context.connect(reader: slot.reader)
            #expect(try card.transmit(h("FFB0000410")).isSuccess)
            #expect {
                _ = try card.transmit(h("FFB0000810"))
            } throws: { error in
                let e = error as! PCSCError
                // pcscd answers the APDU in flight with success and no bytes.
                return e.code == .cardRemoved && e.status == PCSCStatus.success
            }
            #expect {
                _ = try card.transmit(h("FFB0000410"))
            } throws: { ($0 as! PCSCError).code == .cardRemoved || ($0 as! PCSCError).code == .cardUnresponsive }
            card.disconnect()
            #expect(try context.waitForRemoval(on: slot.reader, timeoutMilliseconds: 5000))
        }

        @Test func twoTagsAtOnce() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let ntag = try ntag215()
            let t4 = try type4()
            let a = try EmulatedSlot(ntag, slot: 0)
            defer { try? a.remove() }
            let b = try EmulatedSlot(t4, slot: 1)
            defer { try? b.remove() }

            let f = PCSCFrontend(context: try PCSCContext())
            let targets = try f.poll([.nfcA])
            #expect(targets.count == 2)
            let byUID = Dictionary(uniqueKeysWithValues: targets.map { ($0.identifier, $0) })
            let nt = try #require(byUID[h("04A1B2C3D4E580")])
            let iso = try #require(byUID[h("04C1C2C3C4C5C6")])
            #expect(!nt.isISODEP)
            #expect(iso.isISODEP)
            #expect(f.card(for: iso)?.atr == h("3B8180018080"))  // ATS 06 77 77 71 02 80: historical byte 80

            _ = try f.activate(iso)
            #expect(f.activeProfile is ISODEPProfile)
            #expect(try f.exchange(h("00A4040007D276000085010100")) == .frame([0x90, 0x00]))  // SELECT NDEF app
            #expect(try f.exchange(h("00A4000C02E103")) == .frame([0x90, 0x00]))  // SELECT CC
            #expect(try f.exchange(h("00B000000F")) == .frame(t4.capabilityContainerFile + [0x90, 0x00]))  // READ CC
            _ = try f.activate(nt)  // switches readers; the ISO-DEP card is released
            #expect(try f.exchange([0x30, 0x04]) == .frame(Array(ntag.memory[16..<32])))
            f.deactivate()
        }

        @Test func sessionKeepsOtherApplicationsOff() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let slot = try EmulatedSlot(try ntag215())
            defer { try? slot.remove() }
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            _ = try f.activate(try f.poll([.nfcA])[0])
            #expect {
                _ = try PCSCContext().connect(reader: slot.reader, share: .shared)
            } throws: { ($0 as! PCSCError).code == .sharingViolation }
            f.deactivate()
            let shared = try PCSCContext().connect(reader: slot.reader, share: .shared)
            shared.disconnect()
        }

        @Test func plainUltralightIsToldFromNTAG() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ultralight()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader)
            _ = try f.activate(try f.poll([.nfcA])[0])
            // No GET_VERSION: the probe timed out, the tag was reset and answers again.
            #expect(f.activeVersion == nil)
            #expect(f.activeProfile is ACR122UPassThroughProfile)
            #expect(try f.exchange([0x30, 0x04]) == .frame(Array(tag.memory[16..<32])))
            f.deactivate()
        }
    }
}
