import OpenNFCRF
import Testing

@Suite struct ActivationTests {
    @Test func targetsCarryTheirTechnologysOwnFacts() {
        let a = RFTarget.nfcA(uid: [0x04, 1, 2, 3, 4, 5, 6], sensRes: 0x0044, selRes: 0x00)
        #expect(a.technology == .nfcA && a.sensRes == 0x0044 && a.selRes == 0 && !a.isISODEP)
        #expect(a.nfcF == nil && a.nfcV == nil && a.nfcB == nil)

        let idm: [UInt8] = [0x01, 0x2E, 0x4C, 0xC2, 0x08, 0x1F, 0x2B, 0x01]
        let pmm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
        let f = RFTarget(.nfcF(NFCFActivation(idm: idm, pmm: pmm, systemCode: 0x12FC)), handle: 3)
        #expect(f.technology == .nfcF && f.identifier == idm && f.nfcF?.systemCode == 0x12FC && !f.isISODEP)
        #expect(f.sensRes == nil && f.ats == nil)
        #expect(f.description == "nfcF UID 012E4CC2081F2B01 PMm 00F1000000014300 SC 12FC")

        let uid: [UInt8] = [0xE0, 0x04, 0x01, 0x50, 0x12, 0x34, 0x56, 0x78]
        let v = RFTarget(.nfcV(NFCVActivation(uid: uid, dsfid: 0x00)))
        #expect(v.technology == .nfcV && v.nfcV?.icManufacturerCode == 0x04 && !v.isISODEP)
    }

    @Test func atqbIsParsedIntoItsFields() throws {
        // ISO/IEC 14443-3 §7.9: 50, PUPI(4), application data(4), protocol info(3).
        let atqb: [UInt8] = [0x50, 0x11, 0x22, 0x33, 0x44, 0x00, 0x00, 0x00, 0x00, 0x00, 0x81, 0x71]
        let b = try #require(NFCBActivation(atqb: atqb))
        #expect(b.pupi == [0x11, 0x22, 0x33, 0x44] && b.applicationData == [0, 0, 0, 0])
        #expect(b.protocolInfo == [0x00, 0x81, 0x71] && b.isISODEPCompliant && b.atqb == atqb)
        #expect(NFCBActivation(atqb: Array(atqb.dropLast())) == nil)
        #expect(NFCBActivation(atqb: [0x51] + atqb.dropFirst()) == nil)
        #expect(RFTarget(.nfcB(b)).isISODEP)
    }

    @Test func settingTheATSTouchesOnlyNFCA() {
        var a = RFTarget.nfcA(uid: [1, 2, 3, 4], sensRes: 0x0004, selRes: 0x20)
        a.ats = [0x05, 0x78, 0x80, 0x70, 0x02]
        #expect(a.ats == [0x05, 0x78, 0x80, 0x70, 0x02] && a.isISODEP)
        var v = RFTarget(.identifierOnly(.nfcV, [0xE0, 0x02, 1, 2, 3, 4, 5, 6]))
        v.ats = [0x05]
        #expect(v.ats == nil && v.nfcV?.dsfid == 0)
    }

    @Test func pollRequestsCarryPerTechnologyParameters() {
        let all = RFPollRequest(Set(RFTechnology.allCases))
        #expect(all.technologies == Set(RFTechnology.allCases))
        #expect(all.nfcF == RFPollRequest.NFCF(systemCode: 0xFFFF, requestCode: 0, timeSlots: 0, bitRate: 212))
        #expect(all.nfcV?.slots == 16 && all.nfcV?.afi == nil && all.nfcA?.wakeUp == true)
        var r = RFPollRequest(nfcF: .init(systemCode: 0x12FC, requestCode: 0x01, timeSlots: 0x03))
        #expect(r.technologies == [.nfcF])
        r.nfcV = .init(afi: 0x07, slots: 1)
        #expect(r.restricted(to: [.nfcA, .nfcV]) == RFPollRequest(nfcV: .init(afi: 0x07, slots: 1)))
    }

    @Test func capabilitiesDeriveFrameModesAndAuthenticationDefaultsToUnsupported() throws {
        let iphone = RFCapabilities(
            maxCommandSize: 261, maxResponseSize: 258, rawFrames: true, technologies: Set(RFTechnology.allCases))
        #expect(iphone.frameModes == Set(RFFrameMode.allCases) && !iphone.mifareClassicAuthentication)
        let isoOnly = RFCapabilities(maxCommandSize: 252, maxResponseSize: 252, rawFrames: false, technologies: [.nfcA])
        #expect(isoOnly.frameModes == [.isoDEP])
        let fe = EchoFrontend()
        #expect(
            throws: RFError(
                .unsupported,
                "this frontend cannot perform \(RFAuthentication.mifareClassic(block: 4, keyType: .a, key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])) itself"
            )
        ) {
            try fe.authenticate(.mifareClassic(block: 4, keyType: .a, key: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF]))
        }
    }
}
