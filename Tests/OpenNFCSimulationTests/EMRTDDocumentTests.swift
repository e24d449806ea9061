import OpenNFCBytes
import OpenNFCCrypto
import OpenNFCSimulation
import OpenNFCTestSupport
import Testing

/// The personalised files of the virtual eMRTD, their signature and their faults, checked in the test from ICAO
/// Doc 9303 Parts 3–5 (MRZ), 10 (LDS) and 12 (PKI) and RFC 5652 (CMS).
@Suite struct EMRTDDocumentTests {
    /// ICAO's specimen MRZs (Part 4 and Part 5 examples) and the TD1 long document number layout.
    @Test func mrzComposition() throws {
        #expect(
            MRZ.specimenPassport.lines == [
                "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<", "L898902C36UTO7408122F1204159ZE184226B<<<<<10",
            ])
        #expect(
            MRZ.specimenCard.lines == [
                "I<UTOD231458907<<<<<<<<<<<<<<<", "7408122F1204159UTO<<<<<<<<<<<6", "ERIKSSON<<ANNA<MARIA<<<<<<<<<<",
            ])
        let long = try MRZ(
            parsing: "I<NLD123456789<010<OHDA1<<<<<<6503101F3108022NLDOPT<DATA2<<5DE<BRUIJN<<WILLEKE<LISELOTTE<<")
        #expect(long.documentNumber == "12345678901" && long.optionalData == "OHDA1")
        #expect(long.keyInformation == "12345678901" + "0" + "6503101" + "3108022")
        #expect(long.surname == "DE BRUIJN" && long.givenNames == "WILLEKE LISELOTTE")
        #expect(try MRZ(parsing: MRZ.specimenPassport.lines.joined(separator: "\n")) == MRZ.specimenPassport)
        #expect(throws: MRZ.Invalid.self) {
            try MRZ(parsing: "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<L898902C37UTO7408122F1204159ZE184226B<<<<<10")
        }
    }

    /// The DER children of the constructed value at `range`.
    static func children(_ b: [UInt8], _ range: Range<Int>) -> [(tag: UInt16, whole: Range<Int>, value: Range<Int>)] {
        var out: [(UInt16, Range<Int>, Range<Int>)] = []
        var at = range.lowerBound
        while at < range.upperBound, let e = LDSTLV.element(b, at: at) {
            out.append((e.tag, at..<e.value.upperBound, e.value))
            at = e.value.upperBound
        }
        return out
    }

    /// (signed attributes re-tagged as a SET, signature, DS certificate) of an EF.SOD.
    static func signerParts(_ sod: [UInt8]) -> (attributes: [UInt8], signature: [UInt8], certificate: [UInt8])? {
        guard let outer = LDSTLV.element(sod, at: 0), let info = LDSTLV.element(sod, at: outer.value.lowerBound)
        else { return nil }
        let ci = children(sod, info.value)
        guard ci.count == 2, let signedData = children(sod, ci[1].value).first else { return nil }
        let sd = children(sod, signedData.value)
        guard sd.count == 5, let signer = children(sod, sd[4].value).first else { return nil }
        let si = children(sod, signer.value)
        guard si.count == 6, si[3].tag == 0xA0 else { return nil }
        let attributes = [0x31] + Array(sod[(si[3].whole.lowerBound + 1)..<si[3].whole.upperBound])
        return (attributes, Array(sod[si[5].value]), Array(sod[sd[3].value]))
    }

    /// (issuer, validity, subject, SPKI) of a certificate.
    static func certificateFields(_ c: [UInt8]) -> (
        issuer: [UInt8], validity: [UInt8], subject: [UInt8], spki: [UInt8]
    )? {
        guard let cert = LDSTLV.element(c, at: 0), let tbs = children(c, cert.value).first else { return nil }
        let f = children(c, tbs.value)
        guard f.count >= 7 else { return nil }
        return (Array(c[f[3].whole]), Array(c[f[4].whole]), Array(c[f[5].whole]), Array(c[f[6].whole]))
    }

    static func document(_ faults: Set<EMRTDFault>) throws -> EMRTDDocument {
        try EMRTDTestTerminal.passport { $0.faults = faults }.document
    }

    /// A clean document: every data group's SHA-256 is in EF.SOD, the signature over the signed attributes
    /// verifies under the Document Signer's key, the DS was issued by the shipped CSCA, the CSCA is valid today.
    @Test func cleanDocumentPassesPassiveAuthentication() throws {
        let d = try Self.document([])
        let sod = d.files[.sod] ?? []
        for (file, contents) in d.files {
            guard case .dataGroup = file else { continue }
            let hash = try Digest.hash(.sha256, contents)
            #expect(sod.windows(32).contains { Array($0) == hash }, "\(file)'s hash")
        }
        let parts = try #require(Self.signerParts(sod))
        #expect(parts.certificate == d.pki.documentSignerCertificate)
        let ds = try #require(Self.certificateFields(d.pki.documentSignerCertificate))
        let csca = try #require(Self.certificateFields(d.pki.cscaCertificate))
        #expect(
            try PublicKey(spki: ds.spki).verify(
                parts.signature, of: parts.attributes, scheme: .ecdsa(.sha256, plain: false)))
        #expect(ds.issuer == csca.subject && csca.issuer == csca.subject)
        let tbsDS = try #require(LDSTLV.element(d.pki.documentSignerCertificate, at: 0))
        let dsParts = Self.children(d.pki.documentSignerCertificate, tbsDS.value)
        #expect(
            try PublicKey(spki: csca.spki).verify(
                Array(d.pki.documentSignerCertificate[dsParts[2].value].dropFirst()),
                of: Array(d.pki.documentSignerCertificate[dsParts[0].whole]), scheme: .ecdsa(.sha256, plain: false)))
        // notAfter: 15 years from 2025-12-02, after the issue day 2026-12-02.
        #expect(String(decoding: csca.validity, as: UTF8.self).contains("401202000000Z"))
        #expect(String(decoding: d.pki.cscaCertificate, as: UTF8.self).contains("TEST CSCA"))
    }

    /// Each fault's visible effect in the files.
    @Test func faultsShowInTheFiles() throws {
        let tampered = try Self.document([.tamperedDG])
        let dg1 = tampered.files[.dataGroup(1)] ?? []
        #expect(!(tampered.files[.sod] ?? []).windows(32).contains { Array($0) == (try? Digest.hash(.sha256, dg1)) })
        #expect(tampered.mrz?.keyInformation == EMRTDTestTerminal.appendixD.keyInformation, "BAC still works")

        let badSignature = try Self.document([.badSODSignature])
        let parts = try #require(Self.signerParts(badSignature.files[.sod] ?? []))
        let ds = try #require(Self.certificateFields(badSignature.pki.documentSignerCertificate))
        #expect(
            try PublicKey(spki: ds.spki).verify(
                parts.signature, of: parts.attributes, scheme: .ecdsa(.sha256, plain: false))
                == false)

        let expired = try Self.document([.expiredCSCA])
        let cscaValidity = try #require(Self.certificateFields(expired.pki.cscaCertificate)).validity
        #expect(String(decoding: cscaValidity, as: UTF8.self).contains("211202000000Z"), "notAfter 2021-12-02")

        let unknown = try Self.document([.unknownCSCA])
        let unknownDS = try #require(Self.certificateFields(unknown.pki.documentSignerCertificate))
        let shipped = try #require(Self.certificateFields(unknown.pki.cscaCertificate))
        #expect(unknownDS.issuer != shipped.subject)

        #expect(throws: EMRTDIssueError.self) {
            var options = EMRTDIssueOptions(kind: .passport, today: EMRTDTestTerminal.today)
            options.pki = expired.pki
            options.faults = [.unknownCSCA]
            _ = try EMRTDIssuer.issue(.passport, holder: .specimen(.passport), options: options)
        }
    }

    /// The tag file keeps every file byte for byte, the keys, the secrets and the faults; the decoded chip runs BAC.
    @Test(arguments: [EMRTDDocument.Kind.passport, .idCard])
    func tagFileRoundTrip(_ kind: EMRTDDocument.Kind) throws {
        let tag = try EMRTDTestTerminal.passport(
            kind == .passport ? EMRTDTestTerminal.appendixD : MRZ.specimenCard, kind: kind
        ) {
            $0.faults = [.cloned, .tamperedDG]
            $0.can = "654321"
        }
        let json = try TagFile.encodeJSON(tag)
        #expect(json.contains("TEST keys"))
        let back = try #require(try TagFile.decodeJSON(json) as? EMRTDTag)
        #expect(back.chip == kind.rawValue)
        #expect(back.document.files == tag.document.files)
        #expect(back.document.faults == tag.document.faults)
        #expect(back.document.can == "654321")
        #expect(back.document.pki == tag.document.pki)
        #expect(back.document.activeAuthenticationKey == tag.document.activeAuthenticationKey)
        #expect(back.activation == tag.activation)
        #expect(try TagFile.encodeJSON(back) == json)
        var t = EMRTDTestTerminal(back)
        #expect(try t.bac(back.document.mrz?.keyInformation ?? ""))
    }
}

extension Array where Element == UInt8 {
    fileprivate func windows(_ n: Int) -> [ArraySlice<UInt8>] {
        count < n ? [] : (0...(count - n)).map { self[$0..<$0 + n] }
    }
}
