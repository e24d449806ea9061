package import OpenNFCCrypto

/// Basic Access Control (ICAO Doc 9303 Part 11 §4.3): keys from the MRZ information, mutual authentication with
/// GET CHALLENGE and EXTERNAL AUTHENTICATE, then 3DES secure messaging.
///
/// | Step | Command | Frames |
/// |---|---|---|
/// | challenge | `00 84 00 00 08` → RND.IC | 1 |
/// | mutual authentication | `00 82 00 00 28 <E.IFD ‖ M.IFD> 28` → E.IC ‖ M.IC | 1 |
package enum BAC {
    /// Kseed = the first 16 bytes of SHA-1(MRZ information) (Part 11 §9.7.2), and Kenc, Kmac from it (§9.7.1).
    package static func keys(keyInformation: String) throws(PassportError) -> (enc: [UInt8], mac: [UInt8]) {
        do {
            let seed = Array(try Digest.hash(.sha1, Array(keyInformation.utf8)).prefix(16))
            return (
                try ICAOKDF.derive(seed, counter: ICAOKDF.encryption, for: .tdes2),
                try ICAOKDF.derive(seed, counter: ICAOKDF.mac, for: .tdes2)
            )
        } catch { throw PassportError(.unsupported, "BAC key derivation: \(error)") }
    }

    /// Runs BAC and installs the session's secure messaging. A wrong MRZ is ``PassportError/Code/accessDenied``.
    package static func perform(session: EMRTDSession, keyInformation: String, random: any RandomSource)
        throws(PassportError)
    {
        session.secureMessaging = nil
        let (kEnc, kMac) = try keys(keyInformation: keyInformation)
        let challenge = try session.send(CommandAPDU(ins: 0x84, p1: 0, p2: 0, le: 8), name: "GET CHALLENGE")
        guard challenge.isSuccess, challenge.data.count == 8 else {
            throw PassportError(
                .accessDenied, "GET CHALLENGE gave no 8-byte challenge: the chip refuses BAC", statusWord: challenge.sw)
        }
        let rndIC = challenge.data
        let rndIFD = random.bytes(8)
        let kIFD = random.bytes(16)
        let zero = [UInt8](repeating: 0, count: 8)
        let cipher: BlockCipher
        let mac: RetailMAC
        let eIFD: [UInt8]
        do {
            cipher = try BlockCipher(.tdes2, key: kEnc)
            mac = try RetailMAC(key: kMac)
            eIFD = try cipher.encryptCBC(rndIFD + rndIC + kIFD, iv: zero)
        } catch { throw PassportError(.unsupported, "BAC: \(error)") }
        let mIFD: [UInt8]
        do { mIFD = try mac.tag(eIFD) } catch { throw PassportError(.unsupported, "BAC: \(error)") }
        let answer = try session.send(
            CommandAPDU(ins: 0x82, p1: 0, p2: 0, data: eIFD + mIFD, le: 0x28), name: "EXTERNAL AUTHENTICATE")
        guard answer.isSuccess else {
            throw PassportError(
                .accessDenied, "EXTERNAL AUTHENTICATE was refused: the MRZ does not match the document",
                statusWord: answer.sw)
        }
        guard answer.data.count == 40 else {
            throw PassportError(.malformed, "EXTERNAL AUTHENTICATE answered \(answer.data.count) bytes, not 40")
        }
        let eIC = Array(answer.data.prefix(32))
        let r: [UInt8]
        do {
            guard try mac.tag(eIC) == Array(answer.data.suffix(8)) else {
                throw PassportError(.accessDenied, "the chip's M.IC is wrong: it does not hold the MRZ's keys")
            }
            r = try cipher.decryptCBC(eIC, iv: zero)
        } catch let e as PassportError { throw e } catch { throw PassportError(.unsupported, "BAC: \(error)") }
        guard Array(r[0..<8]) == rndIC, Array(r[8..<16]) == rndIFD else {
            throw PassportError(.accessDenied, "the chip's answer does not echo RND.IC ‖ RND.IFD")
        }
        let kIC = Array(r[16..<32])
        let seed = zip(kIFD, kIC).map { $0 ^ $1 }
        do {
            session.secureMessaging = try SecureMessaging(
                cipher: .tdes2, encryptionKey: try ICAOKDF.derive(seed, counter: 1, for: .tdes2),
                macKey: try ICAOKDF.derive(seed, counter: 2, for: .tdes2),
                ssc: Array(rndIC.suffix(4)) + Array(rndIFD.suffix(4)))
        } catch let e as PassportError { throw e } catch { throw PassportError(.unsupported, "BAC: \(error)") }
    }
}
