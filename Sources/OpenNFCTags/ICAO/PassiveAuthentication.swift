internal import OpenNFCBytes
internal import OpenNFCCrypto

/// The trust anchors passive authentication checks Document Signer certificates against: CSCA certificates from a
/// folder of DER or PEM files, or from an ICAO master list (ICAO Doc 9303 Part 12 §8: CMS SignedData of a
/// `CscaMasterList ::= SEQUENCE { version INTEGER, certList SET OF Certificate }`).
package struct CSCAList: Sendable {
    package var certificates: [Certificate]

    package init(certificates: [Certificate]) { self.certificates = certificates }

    /// The certificates of one file: DER, PEM (one or more `CERTIFICATE` blocks), or a master list.
    package static func certificates(inFile bytes: [UInt8], name: String) throws(PassportError) -> [Certificate] {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.contains("-----BEGIN CERTIFICATE-----") {
            var out: [Certificate] = []
            for block in text.split(separator: "-----BEGIN CERTIFICATE-----", omittingEmptySubsequences: false)
                .dropFirst()
            {
                guard let end = block.firstRange(of: "-----END CERTIFICATE-----") else {
                    throw PassportError(.malformed, "\(name): a PEM block has no END line")
                }
                guard let der = Base64.decode(String(block[..<end.lowerBound])) else {
                    throw PassportError(.malformed, "\(name): a PEM block is not base64")
                }
                do throws(PassportError) { out.append(try Certificate(der: der)) } catch {
                    throw PassportError(.malformed, "\(name): \(error.reason)")
                }
            }
            return out
        }
        if let list = try? SignedData(contentInfo: bytes, name: name), list.contentType == "2.23.136.1.1.2" {
            return try LDS.malformed("\(name)'s CscaMasterList") { () throws(DERError) -> [Certificate] in
                var f = try DERNode.parse(list.content).expect(0x30, "CscaMasterList").fields()
                _ = try f.next(0x02, "version")
                var out: [Certificate] = []
                for c in try f.next(0x31, "certList").children() {
                    do throws(PassportError) { out.append(try Certificate(node: c)) } catch {
                        throw DERError("a certificate: \(error.reason)", at: c.offset)
                    }
                }
                return out
            }
        }
        do { return [try Certificate(der: bytes)] } catch {
            throw PassportError(
                .malformed, "\(name) is neither a certificate (DER or PEM) nor a master list: \(error.reason)")
        }
    }
}

/// What passive authentication found (ICAO Doc 9303 Part 11 §5.1): each read data group's hash against the SOD,
/// the SOD's signature against its Document Signer, the DS certificate against the CSCAs.
package struct PassiveAuthenticationResult: Sendable {
    package enum Check: Sendable, Hashable {
        case passed
        case failed(String)
        case notChecked(String)

        package var passed: Bool { self == .passed }
        package var word: String {
            switch self {
            case .passed: "passed"
            case .failed: "FAILED"
            case .notChecked: "not checked"
            }
        }
        package var reason: String? {
            switch self {
            case .passed: nil
            case .failed(let r), .notChecked(let r): r
            }
        }
    }

    /// Per data group: the hash check.
    package var dataGroups: [Int: Check] = [:]
    package var sodSignature: Check = .notChecked("no SOD")
    package var documentSigner: Check = .notChecked("no CSCA list given")
    package var documentSignerSubject: String?
    package var cscaSubject: String?

    /// Whether every performed check passed (a chain not checked for lack of a CSCA list does not fail).
    package var passed: Bool {
        dataGroups.values.allSatisfy { $0 == .passed } && sodSignature.passed
            && (documentSigner.passed || { if case .notChecked = documentSigner { true } else { false } }())
    }
}

package enum PassiveAuthentication {
    /// Runs the checks on EF.SOD and the data groups read (raw files), at `now` (seconds since 1970) for validity.
    package static func verify(
        sod: [UInt8], dataGroups: [Int: [UInt8]], cscas: CSCAList?, now: Int
    ) throws(PassportError) -> PassiveAuthenticationResult {
        var result = PassiveAuthenticationResult()
        let inner = try LDS.parse(sod, "EF.SOD", tag: 0x77)
        let signed = try SignedData(contentInfo: inner.value, name: "EF.SOD")
        guard signed.contentType == "2.23.136.1.1.1" || signed.contentType == "1.2.840.113549.1.7.1" else {
            throw PassportError(
                .malformed, "EF.SOD's content type \(signed.contentType) is not the LDS Security Object")
        }
        let lds = try LDSSecurityObject(signed.content)
        for (n, file) in dataGroups.sorted(by: { $0.key < $1.key }) {
            guard let expected = lds.hashes[n] else {
                result.dataGroups[n] = .failed("DG\(n) is not listed in the SOD")
                continue
            }
            let actual: [UInt8]
            do { actual = try lds.hashAlgorithm.hash(file) } catch { throw PassportError(.unsupported, "\(error)") }
            result.dataGroups[n] =
                actual == expected
                ? .passed
                : .failed("hash mismatch on DG\(n): the file's \(lds.hashAlgorithm.rawValue) is not the SOD's")
        }
        guard let ds = signed.signerCertificate else {
            result.sodSignature = .failed("EF.SOD holds no Document Signer certificate")
            return result
        }
        result.documentSignerSubject = ds.subjectText
        let dsKey: PublicKey
        do { dsKey = try PublicKey(spki: ds.subjectPublicKeyInfo) } catch {
            result.sodSignature = .failed("the Document Signer key cannot be read: \(error)")
            return result
        }
        result.sodSignature =
            try signed.signatureProblem(key: dsKey).map { .failed("bad SOD signature: \($0)") } ?? .passed
        guard let cscas else { return result }
        result.documentSigner = try chain(ds, cscas: cscas, now: now, result: &result)
        return result
    }

    static func chain(_ ds: Certificate, cscas: CSCAList, now: Int, result: inout PassiveAuthenticationResult)
        throws(PassportError) -> PassiveAuthenticationResult.Check
    {
        let candidates = cscas.certificates.filter { $0.subject == ds.issuer }
        guard !candidates.isEmpty else { return .failed("unknown CSCA: none has the subject \(ds.issuerText)") }
        var why = "unknown CSCA: no CSCA with the subject \(ds.issuerText) signed the Document Signer certificate"
        for csca in candidates {
            guard let key = try? PublicKey(spki: csca.subjectPublicKeyInfo), (try? ds.isSigned(by: key)) == true else {
                continue
            }
            result.cscaSubject = csca.subjectText
            let t = DERTime(secondsSince1970: now)
            if t > csca.notAfter || t < csca.notBefore {
                why = "expired CSCA: \(csca.subjectText) is valid \(csca.notBefore) – \(csca.notAfter), now is \(t)"
                continue
            }
            if t > ds.notAfter || t < ds.notBefore {
                return .failed("expired Document Signer: valid \(ds.notBefore) – \(ds.notAfter), now is \(t)")
            }
            return .passed
        }
        return .failed(why)
    }
}
