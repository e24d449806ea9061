import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCPCSC
import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTags
import OpenNFCTestSupport
import Synchronization
import Testing

extension EndToEndSuite {
    /// A virtual Ultralight C (MF0ICU2) through the real pcscd in each ACS pass-through form the reader profiles use:
    /// the ACR122U's `FF 00 00 00 Lc D4 42 …` (PN532 InCommunicateThru, what the probe chooses on the vsmartcard
    /// reader) and the ACR1252U's `FF 00 00 00 Lc <frame>` (forced here: the profile is chosen by reader name). In
    /// both the 3DES authentication opens the protected pages, which the Type 2 NDEF procedures then read and write.
    /// `pcsc`: the emulated reader without ACS forms (a PC/SC 2.02 reader of another maker): the probe falls back to
    /// the PC/SC 2.02 transparent session (`FF C2`, ISO/IEC 14443 Type A layer 3), and the same frames travel there.
    @Suite struct PCSCUltralightCPassThroughTests {
        static let key: [UInt8] = Array(0x30...0x3F)

        @Test(arguments: ["acr122u", "acr1252u", "pcsc"])
        func authenticationReadAndWriteInEachPassThroughForm(_ form: String) throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let message: [UInt8] = [0xD1, 0x01, 0x05, 0x54, 0x02, 0x65, 0x6E, 0x68, 0x69]
            let chip = try Type2Tag.factory(
                .ultralightC, uid: [0x04, 0x71, 0x72, 0x73, 0x74, 0x75, 0x76], holding: message)
            try chip.setUltralightCKey(Self.key)
            try chip.setUltralightCAccess(auth0: 0x04, protectReads: true)
            chip.random = SeededRandomSource(seed: 11)
            let slot = try EmulatedSlot(chip, slot: 1, forms: form == "pcsc" ? .pcsc : .acs)
            defer { try? slot.remove() }
            let profile: (any PCSCProfile)? = form == "acr1252u" ? ACR1252UPassThroughProfile() : nil
            let f = PCSCFrontend(context: try PCSCContext(), reader: slot.reader, profile: profile)
            let sent = Mutex<[[UInt8]]>([])
            f.apduObserver = { command, _ in sent.withLock { $0.append(command) } }
            let id = try TagIdentifier.identify(
                target: try f.activate(try #require(f.poll([.nfcA]).first)), frontend: f)
            guard case .type2(let kind) = id.kind, kind.family == .ultralightC else {
                Issue.record("identified as \(id.kind)")
                return
            }
            let p = try #require(id.ndefProcedure(frontend: f))
            #expect(throws: TagError.self) { try p.readMessage() }  // protected: refused without the key
            f.deactivate()
            let again = try TagIdentifier.identify(
                target: try f.activate(try #require(f.poll([.nfcA]).first)), frontend: f)
            try UltralightCAuthentication(target: again.target, frontend: f, random: SeededRandomSource(seed: 5))
                .authenticate(key: Self.key)
            let q = try #require(again.ndefProcedure(frontend: f))
            #expect(try q.readMessage() == message)
            let next: [UInt8] = [0xD1, 0x01, 0x04, 0x54, 0x02, 0x65, 0x6E, 0x21]
            try q.writeMessage(next)
            #expect(try #require(again.ndefProcedure(frontend: f)).readMessage() == next)
            f.deactivate()
            #expect(chip.ndefMessage == next)
            // Each form's envelope carried AUTHENTICATE 1A 00: D4 42, the bare frame, or the transparent exchange.
            let authenticate: [UInt8] =
                switch form {
                case "acr122u": [0xFF, 0x00, 0x00, 0x00, 0x04, 0xD4, 0x42, 0x1A, 0x00]
                case "acr1252u": [0xFF, 0x00, 0x00, 0x00, 0x02, 0x1A, 0x00]
                default: [0xFF, 0xC2, 0x00, 0x01, 0x04, 0x95, 0x02, 0x1A, 0x00, 0x00]
                }
            #expect(sent.withLock { $0.contains(authenticate) })
        }
    }
}
