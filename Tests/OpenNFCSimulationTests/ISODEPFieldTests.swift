import OpenNFCRF
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The ISO-DEP cards in the virtual field, reached through the RF frontend as the reader procedures see them.
@Suite struct ISODEPFieldTests {
    @Test func type4CardThroughTheFrontend() throws {
        let field = VirtualField(clock: VirtualClock())
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage)
        _ = field.place(tag)
        let frontend = VirtualFieldFrontend(field: field)
        let found = try frontend.poll([.nfcA])
        #expect(found.count == 1)
        #expect(found[0].selRes == 0x20)
        let target = try frontend.activate(found[0], isoDEP: true)
        #expect(target.ats == [0x06, 0x77, 0x77, 0x71, 0x02, 0x80])
        #expect(target.isISODEP)
        #expect(try frontend.exchange(h("00A4040007D276000085010100")) == .frame([0x90, 0x00]))
        #expect(try frontend.exchange(h("00A4000C02E104")) == .frame([0x90, 0x00]))
        #expect(try frontend.exchange(h("00B0000002")) == .frame([0x00, 0x0E, 0x90, 0x00]))
        // Re-activation resets the card: the selection is gone.
        _ = try frontend.activate(found[0], isoDEP: true)
        #expect(try frontend.exchange(h("00B0000002")) == .frame([0x69, 0x86]))
    }

    /// A fault plan tearing the 3rd exchange (an UPDATE BINARY of 4 bytes) after 2 bytes: the reader sees
    /// `linkLost`, the card holds exactly the first 2 new bytes.
    @Test func tearingThroughTheFieldFaultPlan() throws {
        let field = VirtualField(clock: VirtualClock())
        let tag = try Type4Tag.factory(uid: testUID, holding: nfcpyURIMessage)
        _ = field.place(tag)
        let frontend = VirtualFieldFrontend(field: field)
        _ = try frontend.activate(try frontend.poll([.nfcA])[0], isoDEP: true)
        field.faultPlan = FaultPlan([.tear(frame: 3, afterBytes: 2)])
        _ = try frontend.exchange(h("00A4040007D276000085010100"))
        _ = try frontend.exchange(h("00A4000C02E104"))
        do {
            _ = try frontend.exchange(h("00D6000204 A1A2A3A4"))
            Issue.record("the torn exchange answered")
        } catch {
            #expect(error.code == .linkLost)
        }
        #expect(Array(tag.ndefFile[0..<8]) == [0x00, 0x0E, 0xA1, 0xA2, 0x0A, 0x55, 0x03, 0x6E])
        #expect(field.tags.isEmpty)
    }

    @Test func desfireThroughTheFrontend() throws {
        let field = VirtualField(clock: VirtualClock())
        _ = field.place(try DESFireEV1Tag.ndefFormatted(uid: testUID, holding: nfcpyURIMessage))
        let frontend = VirtualFieldFrontend(field: field)
        let target = try frontend.activate(try frontend.poll([.nfcA])[0], isoDEP: true)
        #expect(target.ats == [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
        #expect(target.sensRes == 0x0344)
        #expect(try frontend.exchange([0x60]) == .frame(h("AF 04 01 01 01 00 18 05")))
        #expect(try frontend.exchange(h("90AF000000")) == .frame(h("04 01 01 01 04 18 05 91AF")))
        #expect(try frontend.exchange(h("00A4040007D276000085010100")) == .frame([0x90, 0x00]))
    }
}
