/// Basic Access Control, the chip's half (ICAO Doc 9303 Part 11 §4.3, key derivation §9.7.1, worked example
/// Appendix D).
///
/// | Step | Chip |
/// |---|---|
/// | GET CHALLENGE `00 84 00 00 08` | RND.IC, remembered for one EXTERNAL AUTHENTICATE |
/// | EXTERNAL AUTHENTICATE `00 82 00 00 28 <E.IFD ‖ M.IFD>` | checks M.IFD (retail MAC under Kmac), decrypts S = RND.IFD ‖ RND.IC ‖ K.IFD (3DES-CBC, IV 0), checks RND.IC; answers E.IC ‖ M.IC over R = RND.IC ‖ RND.IFD ‖ K.IC |
/// | Session keys | KSenc, KSmac = KDF(K.IFD ⊕ K.IC, 1 / 2); SSC = RND.IC[4..<8] ‖ RND.IFD[4..<8] |
///
/// Kenc and Kmac come from Kseed, the first 16 bytes of SHA-1 of the MRZ information (number, birth, expiry and
/// their check digits). There is no retry counter (Part 11 §4.3 defines none): a wrong MAC or challenge is `63 00`
/// and the next right attempt, after a new GET CHALLENGE, works. Without a preceding GET CHALLENGE: `69 85`.
extension EMRTDTag {
    func externalAuthenticate(_ command: ISO7816Command) -> ISO7816Response {
        // Recent PACE-only documents keep no BAC keys: "referenced data not found".
        if document.paceOnly { return .status(ISO7816Status(rawValue: 0x6A88)) }
        guard command.p1 == 0, command.p2 == 0 else { return .status(.incorrectP1P2) }
        guard command.data.count == 40 else { return .status(.wrongLength) }
        guard let rndIC = challenge else { return .status(ISO7816Status(rawValue: 0x6985)) }
        challenge = nil
        guard let mrz = document.mrz else { return .status(.noPreciseDiagnosis) }
        let failed = ISO7816Status(rawValue: 0x6300)
        do throws(ICAOCryptoError) {
            let seed = Array(try ICAOCrypto.sha1(Array(mrz.keyInformation.utf8)).prefix(16))
            let kEnc = try ICAOCrypto.kdf(seed, 1, .tdes2)
            let kMac = try ICAOCrypto.kdf(seed, 2, .tdes2)
            let eIFD = Array(command.data.prefix(32))
            let mIFD = Array(command.data.suffix(8))
            guard try ICAOCrypto.mac(.tdes2, key: kMac, ICAOCrypto.pad(eIFD, block: 8)) == mIFD else {
                return .status(failed)
            }
            let s = try ICAOCrypto.decryptCBC(.tdes2, key: kEnc, iv: [UInt8](repeating: 0, count: 8), eIFD)
            let rndIFD = Array(s[0..<8])
            guard Array(s[8..<16]) == rndIC else { return .status(failed) }
            let kIFD = Array(s[16..<32])
            let kIC = testHooks.keyIC ?? random.bytes(16)
            let eIC = try ICAOCrypto.encryptCBC(
                .tdes2, key: kEnc, iv: [UInt8](repeating: 0, count: 8), rndIC + rndIFD + kIC)
            let mIC = try ICAOCrypto.mac(.tdes2, key: kMac, ICAOCrypto.pad(eIC, block: 8))
            let sessionSeed = zip(kIFD, kIC).map { $0 ^ $1 }
            let channel = EMRTDSecureChannel(
                cipher: .tdes2, encryptionKey: try ICAOCrypto.kdf(sessionSeed, 1, .tdes2),
                macKey: try ICAOCrypto.kdf(sessionSeed, 2, .tdes2), ssc: Array(rndIC.suffix(4) + rndIFD.suffix(4)))
            startSession(channel)
            return ISO7816Response(data: eIC + mIC)
        } catch {
            return .status(.noPreciseDiagnosis)
        }
    }
}
