import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// PACE, Chip Authentication and Active Authentication on the virtual eMRTD, the terminal side computed in the test
/// from ICAO Doc 9303 Part 11 and BSI TR-03110-3 with `OpenNFCCrypto`.
@Suite struct EMRTDPACETests {
    /// The MRZ of Part 11's PACE worked examples (T22000129, born 640812, expires 101031).
    static let paceMRZ = MRZ(
        format: .td3, issuingState: "D", surname: "MUSTERMANN", givenNames: "ERIKA", documentNumber: "T22000129",
        nationality: "D", dateOfBirth: "640812", sex: "F", dateOfExpiry: "101031")

    /// Part 11's worked example of PACE ECDH Generic Mapping (id-PACE-ECDH-GM-AES-CBC-CMAC-128, brainpoolP256r1),
    /// byte for byte: the chip's nonce and its two private keys are the example's, fixed through the test hooks.
    @Test func genericMappingWorkedExample() throws {
        let tag = try EMRTDTestTerminal.passport(Self.paceMRZ)
        tag.testHooks.paceNonce = h("3F00C4D39D153F2B2A214A078D899B22")
        tag.testHooks.paceMappingKey = h("498FF49756F2DC1587840041839A85982BE7761D14715FB091EFA7BCE9058560")
        tag.testHooks.paceEphemeralKey = h("107CF58696EF6155053340FD633392BA81909DF7B9706F226F32086C7AFF974A")
        playISODEP(
            tag,
            """
            0022C1A40F800A04007F00070202040202830101 -> 9000 # MSE:Set AT, MRZ
            10860000027C0000 -> 7C12801095A3A016522EE98D01E76CB6B98B42C3 9000 # GA 1: encrypted nonce
            10860000457C438141047ACF3EFC982EC45565A4B155129EFBC74650DCBFA6362D896FC70262E0C2CC5E544552DCB6725218799115B55C9BAA6D9F6BC3A9618E70C25AF71777A9C4922D00 -> 7C43824104824FBA91C9CBE26BEF53A0EBE7342A3BF178CEA9F45DE0B70AA601651FBA3F5730D8C879AAA9C9F73991E61B58F4D52EB87A0A0C709A49DC63719363CCD13C54 9000 # GA 2: mapping
            10860000457C438341042DB7A64C0355044EC9DF190514C625CBA2CEA48754887122F3A5EF0D5EDD301C3556F3B3B186DF10B857B58F6A7EB80F20BA5DC7BE1D43D9BF850149FBB3646200 -> 7C438441049E880F842905B8B3181F7AF7CAA9F0EFB743847F44A306D2D28C1D9EC65DF6DB7764B22277A2EDDC3C265A9F018F9CB852E111B768B326904B59A0193776F094 9000 # GA 3: key agreement
            008600000C7C0A8508C2B0BD78D94BA86600 -> 7C0A86083ABB9674BCE93C08 9000 # GA 4: tokens
            """)
        var t = EMRTDTestTerminal(tag)
        t.cipher = .aes128
        t.ksEnc = h("F5F0E35C0D7161EE6724EE513A0D9A7F")
        t.ksMac = h("FE251C7858B356B24514B3BD5F4297D1")
        t.ssc = [UInt8](repeating: 0, count: 16)
        let cardAccess = try t.exchange(ins: 0xB0, p1: 0x9C, p2: 0, le: [0x00])
        #expect(cardAccess.sw == 0x9000 && cardAccess.data == tag.document.files[.cardAccess])
    }

    /// PACE run by the test's own terminal (random keys on both sides) for each cipher on a brainpool and a NIST
    /// curve, with the MRZ and with the CAN; then EF.COM reads under the new secure messaging. A wrong CAN fails
    /// the token check (`63 00`).
    @Test(arguments: [
        PACEProtocol(cipher: .aes128, parameterID: 13), PACEProtocol(cipher: .aes256, parameterID: 12),
        PACEProtocol(cipher: .tdes, parameterID: 16), PACEProtocol(cipher: .aes192, parameterID: 15),
    ])
    func paceWithEveryCipher(_ proto: PACEProtocol) throws {
        let tag = try EMRTDTestTerminal.passport(Self.paceMRZ) { $0.pace = [proto] }
        let mrzPassword = try Digest.hash(.sha1, Array(Self.paceMRZ.keyInformation.utf8))
        for (reference, password) in [(UInt8(1), mrzPassword), (2, Array("123456".utf8))] {
            var t = EMRTDTestTerminal(tag)
            #expect(try t.pace(proto, reference: reference, password: password))
            #expect(try t.exchange(ins: 0xA4, p1: 0x04, p2: 0x0C, data: LDSFile.applicationID).sw == 0x9000)
            #expect(try t.readFile(sfi: 0x1E) == tag.document.files[.com])
            tag.reset()
        }
        var t = EMRTDTestTerminal(tag)
        #expect(try t.pace(proto, reference: 2, password: Array("654321".utf8)) == false)
    }

    /// Active Authentication with RSA (ISO/IEC 9796-2 scheme 1: the recovered F is `6A ‖ M1 ‖ SHA-1(M1 ‖ RND.IFD)
    /// ‖ BC` under DG15's key) and with ECDSA (plain `r ‖ s` verifying under DG15); the `cloned` fault's chip
    /// signs with another key.
    @Test(arguments: [EMRTDIssueOptions.ActiveAuthentication.rsa, .ecdsa], [false, true])
    func activeAuthentication(_ algorithm: EMRTDIssueOptions.ActiveAuthentication, cloned: Bool) throws {
        let tag = try EMRTDTestTerminal.passport {
            $0.activeAuthentication = algorithm
            if cloned { $0.faults = [.cloned] }
        }
        var t = EMRTDTestTerminal(tag)
        _ = t.send(h("00A4040C07A0000002471001"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        let dg15 = try t.readFile(sfi: 0x0F)
        let key = try PublicKey(spki: Array(dg15.dropFirst(dg15[1] < 0x80 ? 2 : 2 + Int(dg15[1] & 0x7F))))
        let rnd = h("F173589974BF40C6")
        let answer = try t.exchange(ins: 0x88, p1: 0, p2: 0, data: rnd, le: [0x00])
        #expect(answer.sw == 0x9000)
        switch algorithm {
        case .rsa:
            // Another key's signature (the cloned chip's) is not always below DG15's modulus: then the public
            // operation refuses it, which is as much a failed check as a wrong recovered message.
            var valid = false
            if let f = try? key.rsaPublicOperation(answer.data) {
                let m1 = Array(f.dropFirst().prefix(f.count - 22))
                let digest = try Digest.hash(.sha1, m1 + rnd)
                valid = f.first == 0x6A && f.last == 0xBC && Array(f.suffix(21).prefix(20)) == digest
            }
            #expect(valid == !cloned)
        case .ecdsa:
            #expect(try key.verify(answer.data, of: rnd, scheme: .ecdsa(.sha256, plain: true)) == !cloned)
        }
    }

    /// Chip Authentication: AES through MSE:Set AT + GENERAL AUTHENTICATE, 3DES through MSE:Set KAT; the answer
    /// comes under the old keys, then the keys of K = x(SK.IFD · PK.IC) with SSC 0 protect DG1's read.
    @Test(arguments: [SMCipherName.aes128, .tdes, .aes256])
    func chipAuthentication(_ cipher: SMCipherName) throws {
        let tag = try EMRTDTestTerminal.passport { $0.chipAuthenticationCipher = cipher }
        var t = EMRTDTestTerminal(tag)
        _ = t.send(h("00A4040C07A0000002471001"))
        #expect(try t.bac(EMRTDTestTerminal.appendixD.keyInformation))
        let dg14 = try t.readFile(sfi: 0x0E)
        let chipKey = try PrivateKey(pkcs8: tag.document.chipAuthenticationKey ?? [])
        let chipPublic = try chipKey.publicKey.ecPoint
        #expect(dg14.windows(chipPublic.count).contains(chipPublic[...]), "DG14 holds the CA public key")
        let group = try ECGroup(.brainpoolP256r1)
        let mine = try group.generateKeyPair(random: SystemRandomSource())
        let algorithm: CipherAlgorithm
        if cipher == .tdes {
            algorithm = .tdes2
            #expect(
                try t.exchange(ins: 0x22, p1: 0x41, p2: 0xA6, data: LDSTLV.encode(0x91, mine.publicKey)).sw == 0x9000)
        } else {
            algorithm = cipher == .aes128 ? .aes128 : .aes256
            let oid = h("04007F0007020203 02") + [cipher == .aes128 ? 2 : 4]
            #expect(try t.exchange(ins: 0x22, p1: 0x41, p2: 0xA4, data: LDSTLV.encode(0x80, oid)).sw == 0x9000)
            let ga = try t.exchange(
                ins: 0x86, p1: 0, p2: 0, data: LDSTLV.encode(0x7C, LDSTLV.encode(0x80, mine.publicKey)), le: [0x00])
            #expect(ga.sw == 0x9000 && ga.data == [0x7C, 0x00])
        }
        let k = try group.sharedSecret(privateKey: mine.privateKey, publicKey: chipPublic)
        t.cipher = algorithm
        t.ksEnc = try EMRTDTestTerminal.kdf(k, 1, algorithm)
        t.ksMac = try EMRTDTestTerminal.kdf(k, 2, algorithm)
        t.ssc = [UInt8](repeating: 0, count: algorithm.blockLength)
        #expect(try t.readFile(sfi: 0x01) == tag.document.files[.dataGroup(1)])
    }
}

extension Array where Element == UInt8 {
    fileprivate func windows(_ n: Int) -> [ArraySlice<UInt8>] {
        count < n ? [] : (0...(count - n)).map { self[$0..<$0 + n] }
    }
}

extension EMRTDTestTerminal {
    /// PACE ECDH-GM from the terminal's side (TR-03110-3 §A.3, §B.1); true when the chip's token verified and
    /// secure messaging started.
    mutating func pace(_ proto: PACEProtocol, reference: UInt8, password: [UInt8]) throws -> Bool {
        let algorithm: CipherAlgorithm =
            switch proto.cipher {
            case .tdes: .tdes2
            case .aes128: .aes128
            case .aes192: .aes192
            case .aes256: .aes256
            }
        guard let curveName = PACEProtocol.curveNames[proto.parameterID], let curve = NamedCurve(rawValue: curveName)
        else { return false }
        let group = try ECGroup(curve)
        let setAT = LDSTLV.encode(0x80, proto.oid) + [0x83, 0x01, reference]
        guard send(h("0022C1A4") + [UInt8(setAT.count)] + setAT) == h("9000") else { return false }
        func ga(_ cla: UInt8, _ tag: UInt16, _ value: [UInt8]) -> [UInt8]? {
            let body = value.isEmpty ? [0x7C, 0x00] : LDSTLV.encode(0x7C, LDSTLV.encode(tag, value))
            let answer = send([cla, 0x86, 0x00, 0x00, UInt8(body.count)] + body + [0x00])
            guard answer.suffix(2) == [0x90, 0x00], let outer = LDSTLV.element(answer, at: 0),
                let inner = LDSTLV.element(answer, at: outer.value.lowerBound)
            else { return nil }
            return Array(answer[inner.value])
        }
        guard let z = ga(0x10, 0, []) else { return false }
        let kPi = try Self.kdf(password, 3, algorithm)
        let s = try BlockCipher(algorithm, key: kPi).decryptCBC(
            z, iv: [UInt8](repeating: 0, count: algorithm.blockLength))
        let random = SystemRandomSource()
        let map = try group.generateKeyPair(random: random)
        guard let chipMap = ga(0x10, 0x81, map.publicKey) else { return false }
        let generator = try group.genericMapping(
            nonce: s, sharedPoint: try group.sharedPoint(privateKey: map.privateKey, publicKey: chipMap))
        let eph = try group.generateKeyPair(generator: generator, random: random)
        guard let chipEph = ga(0x10, 0x83, eph.publicKey) else { return false }
        let k = try group.sharedSecret(privateKey: eph.privateKey, publicKey: chipEph)
        cipher = algorithm
        ksEnc = try Self.kdf(k, 1, algorithm)
        ksMac = try Self.kdf(k, 2, algorithm)
        func token(_ point: [UInt8]) throws -> [UInt8] {
            let object = LDSTLV.encode(0x7F49, LDSTLV.encode(0x06, proto.oid) + LDSTLV.encode(0x86, point))
            if algorithm.isAES { return Array(try CMAC(algorithm, key: ksMac).tag(object).prefix(8)) }
            return try RetailMAC(key: ksMac).tag(object)
        }
        guard let tIC = ga(0x00, 0x85, try token(chipEph)) else { return false }
        #expect(tIC == (try token(eph.publicKey)), "the chip's token")
        ssc = [UInt8](repeating: 0, count: algorithm.blockLength)
        return true
    }
}
