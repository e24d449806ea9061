import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The inspection system's side of the eMRTD protocols, written in the test from ICAO Doc 9303 Part 11 (§4.3 BAC,
/// §9.8 secure messaging) with `OpenNFCCrypto`'s primitives: the APDUs the card-side tests send are computed here,
/// never taken from the chip's code.
struct EMRTDTestTerminal {
    let tag: EMRTDTag
    var cipher: CipherAlgorithm = .tdes2
    var ksEnc: [UInt8] = []
    var ksMac: [UInt8] = []
    var ssc: [UInt8] = []

    init(_ tag: EMRTDTag) { self.tag = tag }

    static let today = EMRTDTestPKI.Day(year: 2026, month: 12, day: 2)

    /// The MRZ of Part 11 Appendix D (document L898902C<, born 690806, expires 940623).
    static let appendixD = MRZ(
        format: .td3, issuingState: "UTO", surname: "ERIKSSON", givenNames: "ANNA MARIA", documentNumber: "L898902C",
        nationality: "UTO", dateOfBirth: "690806", sex: "F", dateOfExpiry: "940623")

    /// A passport of `mrz` issued on ``today``, NFC-B, PUPI `08 01 02 03`.
    static func passport(
        _ mrz: MRZ = appendixD, kind: EMRTDDocument.Kind = .passport,
        _ configure: (inout EMRTDIssueOptions) -> Void = { _ in }
    ) throws -> EMRTDTag {
        var options = EMRTDIssueOptions(kind: kind, today: today)
        options.can = "123456"
        configure(&options)
        let document = try EMRTDIssuer.issue(kind, holder: EMRTDHolder(mrz: mrz), options: options)
        return EMRTDTag(
            document: document, activation: try EMRTDTag.defaultActivation(kind: kind, uid: [0x08, 0x01, 0x02, 0x03]))
    }

    /// One APDU, plain: the answer's bytes (data and SW).
    func send(_ apdu: [UInt8]) -> [UInt8] {
        guard case .data(let bytes) = tag.receive(apdu, tearAfter: nil) else { return [] }
        return bytes
    }

    static func kdf(_ seed: [UInt8], _ c: UInt32, _ cipher: CipherAlgorithm) throws -> [UInt8] {
        try ICAOKDF.derive(seed, counter: c, for: cipher)
    }

    func mac(_ data: [UInt8]) throws -> [UInt8] {
        let padded = Padding.method2(data, blockLength: cipher.blockLength)
        if cipher.isAES { return Array(try CMAC(cipher, key: ksMac).tag(padded).prefix(8)) }
        return try RetailMAC(key: ksMac).tag(padded: padded)
    }

    func iv() throws -> [UInt8] {
        cipher.isAES ? try BlockCipher(cipher, key: ksEnc).encryptECB(ssc) : [UInt8](repeating: 0, count: 8)
    }

    mutating func increment() {
        var i = ssc.count - 1
        while i >= 0 {
            ssc[i] &+= 1
            if ssc[i] != 0 { break }
            i -= 1
        }
    }

    /// BAC with the MRZ information `mrz`, RND.IFD and K.IFD of Appendix D; true when the chip accepted it.
    mutating func bac(
        _ keyInformation: String, rndIFD: [UInt8] = h("781723860C06C226"),
        kIFD: [UInt8] = h("0B795240CB7049B01C19B33E32804F0B")
    ) throws -> Bool {
        let challenge = send(h("0084000008"))
        guard challenge.count == 10 else { return false }
        let rndIC = Array(challenge.prefix(8))
        let seed = Array(try Digest.hash(.sha1, Array(keyInformation.utf8)).prefix(16))
        let kEnc = try Self.kdf(seed, 1, .tdes2)
        let kMac = try Self.kdf(seed, 2, .tdes2)
        let e = try BlockCipher(.tdes2, key: kEnc).encryptCBC(
            rndIFD + rndIC + kIFD, iv: [UInt8](repeating: 0, count: 8))
        let m = try RetailMAC(key: kMac).tag(e)
        let answer = send(h("0082000028") + e + m + [0x28])
        guard answer.count == 42, answer.suffix(2) == [0x90, 0x00] else { return false }
        let r = try BlockCipher(.tdes2, key: kEnc).decryptCBC(
            Array(answer.prefix(32)), iv: [UInt8](repeating: 0, count: 8))
        #expect(try RetailMAC(key: kMac).tag(Array(answer.prefix(32))) == Array(answer[32..<40]))
        #expect(Array(r[0..<8]) == rndIC && Array(r[8..<16]) == rndIFD)
        let seedSession = zip(kIFD, r[16..<32]).map { $0 ^ $1 }
        cipher = .tdes2
        ksEnc = try Self.kdf(seedSession, 1, .tdes2)
        ksMac = try Self.kdf(seedSession, 2, .tdes2)
        ssc = Array(rndIC.suffix(4) + rndIFD.suffix(4))
        return true
    }

    /// The protected form of a plain command (Part 11 §9.8.4); `le` nil: no DO'97'.
    mutating func protect(
        cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: [UInt8]? = nil,
        extended: Bool = false
    ) throws -> [UInt8] {
        increment()
        let header = [cla | 0x0C, ins, p1, p2]
        var objects: [UInt8] = []
        if !data.isEmpty {
            let c = try BlockCipher(cipher, key: ksEnc).encryptCBC(
                Padding.method2(data, blockLength: cipher.blockLength), iv: try iv())
            objects += ins & 1 == 1 ? LDSTLV.encode(0x85, c) : LDSTLV.encode(0x87, [0x01] + c)
        }
        if let le { objects += LDSTLV.encode(0x97, le) }
        let cc = try mac(ssc + Padding.method2(header, blockLength: cipher.blockLength) + objects)
        objects += [0x8E, 0x08] + cc
        if extended {
            return header + [0x00, UInt8(objects.count >> 8), UInt8(objects.count & 0xFF)] + objects + [0, 0]
        }
        return header + [UInt8(objects.count)] + objects + [0x00]
    }

    /// Checks a protected answer's MAC and returns its plain data and status word.
    mutating func unprotect(_ answer: [UInt8]) throws -> (data: [UInt8], sw: UInt16) {
        increment()
        let body = Array(answer.dropLast(2))
        var at = 0
        var macInput: [UInt8] = []
        var data: [UInt8] = []
        var sw: UInt16 = 0
        var mac: [UInt8] = []
        while at < body.count, let e = LDSTLV.element(body, at: at) {
            let whole = Array(body[at..<e.value.upperBound])
            let value = Array(body[e.value])
            switch e.tag {
            case 0x87, 0x85:
                macInput += whole
                let c = e.tag == 0x87 ? Array(value.dropFirst()) : value
                let p = try BlockCipher(cipher, key: ksEnc).decryptCBC(c, iv: try iv())
                data = Padding.removeMethod2(p, blockLength: cipher.blockLength) ?? []
            case 0x99:
                macInput += whole
                sw = UInt16(value[0]) << 8 | UInt16(value[1])
            case 0x8E: mac = value
            default: break
            }
            at = e.value.upperBound
        }
        #expect(try self.mac(ssc + macInput) == mac, "response MAC")
        return (data, sw)
    }

    /// Sends a protected command and unwraps the answer.
    mutating func exchange(
        cla: UInt8 = 0x00, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], le: [UInt8]? = nil,
        extended: Bool = false
    ) throws -> (data: [UInt8], sw: UInt16) {
        let answer = send(try protect(cla: cla, ins: ins, p1: p1, p2: p2, data: data, le: le, extended: extended))
        guard answer.count > 2 else { return ([], UInt16(answer.first ?? 0) << 8 | UInt16(answer.last ?? 0)) }
        return try unprotect(answer)
    }

    /// Reads a whole file of the current DF by SFI under secure messaging, `chunk` bytes at a time.
    mutating func readFile(sfi: UInt8, chunk: Int = 0xDF) throws -> [UInt8] {
        var out = try exchange(ins: 0xB0, p1: 0x80 | sfi, p2: 0, le: [0x06]).data
        guard let total = Self.totalLength(out) else { return out }
        while out.count < total {
            let n = min(chunk, total - out.count)
            let part = try exchange(
                ins: 0xB0, p1: UInt8(out.count >> 8), p2: UInt8(out.count & 0xFF), le: [UInt8(n & 0xFF)])
            guard part.sw == 0x9000, !part.data.isEmpty else { break }
            out += part.data
        }
        return out
    }

    /// The length of a whole BER-TLV from its first bytes (tag of one or two bytes, length up to `83`).
    static func totalLength(_ head: [UInt8]) -> Int? {
        guard head.count >= 2 else { return nil }
        let i = head[0] & 0x1F == 0x1F ? 2 : 1
        guard i < head.count else { return nil }
        let l = Int(head[i])
        if l < 0x80 { return i + 1 + l }
        let k = l & 0x7F
        guard i + 1 + k <= head.count else { return nil }
        return i + 1 + k + head[(i + 1)..<(i + 1 + k)].reduce(0) { $0 << 8 | Int($1) }
    }
}
