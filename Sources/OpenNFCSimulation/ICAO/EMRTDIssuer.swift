internal import OpenNFCCrypto

/// The holder's data a virtual eMRTD is personalised with.
package struct EMRTDHolder: Sendable, Hashable {
    package var mrz: MRZ
    /// The face for DG2, a JPEG; nil: the built-in test portrait (``FaceImage/testPortrait``).
    package var photo: [UInt8]?
    /// DG11 fields (DG11 is present when any is set).
    package var placeOfBirth: String?
    /// CCYYMMDD.
    package var fullDateOfBirth: String?
    /// DG12 fields (DG12 is present when any is set).
    package var issuingAuthority: String?
    /// CCYYMMDD.
    package var dateOfIssue: String?

    package init(
        mrz: MRZ, photo: [UInt8]? = nil, placeOfBirth: String? = nil, fullDateOfBirth: String? = nil,
        issuingAuthority: String? = nil, dateOfIssue: String? = nil
    ) {
        self.mrz = mrz
        self.photo = photo
        self.placeOfBirth = placeOfBirth
        self.fullDateOfBirth = fullDateOfBirth
        self.issuingAuthority = issuingAuthority
        self.dateOfIssue = dateOfIssue
    }

    /// ICAO's specimen holder for `kind`, with DG11 and DG12 filled as a Utopian document would have them.
    package static func specimen(_ kind: EMRTDDocument.Kind) -> EMRTDHolder {
        EMRTDHolder(
            mrz: kind == .passport ? .specimenPassport : .specimenCard, placeOfBirth: "ZENITH",
            fullDateOfBirth: "19740812", issuingAuthority: "UTOPIA TEST AUTHORITY", dateOfIssue: "20020416")
    }
}

/// How a document is personalised beyond the holder's data.
package struct EMRTDIssueOptions: Sendable {
    /// The algorithm of the Active Authentication key (DG15).
    package enum ActiveAuthentication: String, Sendable, Hashable {
        /// RSA 1024 bits, ISO/IEC 9796-2 signatures.
        case rsa = "RSA-1024"
        /// ECDSA on P-256, plain signatures with SHA-256.
        case ecdsa = "ECDSA-P256"
    }

    package var can: String?
    package var paceOnly = false
    package var pace: [PACEProtocol] = [PACEProtocol()]
    package var activeAuthentication: ActiveAuthentication
    package var chipAuthenticationCipher: SMCipherName = .aes128
    /// A shared PKI to sign under; nil: one is generated for the document.
    package var pki: EMRTDTestPKI?
    package var faults: Set<EMRTDFault> = []
    /// The day the document is issued (certificate validity counts from it).
    package var today: EMRTDTestPKI.Day

    package init(kind: EMRTDDocument.Kind, today: EMRTDTestPKI.Day) {
        self.today = today
        activeAuthentication = kind == .passport ? .rsa : .ecdsa
    }
}

/// Why a document cannot be issued; `reason` names the option or field at fault.
package struct EMRTDIssueError: Error, Sendable, Hashable, CustomStringConvertible {
    package var reason: String
    package init(_ reason: String) { self.reason = reason }
    package var description: String { reason }
}

/// Personalisation of a virtual eMRTD (ICAO Doc 9303 Part 10 for the files, Part 12 for the signature): builds the
/// LDS from the holder's data, generates the document's TEST keys (Chip Authentication on brainpoolP256r1, Active
/// Authentication RSA or ECDSA), hashes the data groups into EF.SOD and signs it with the Document Signer, then
/// applies the faults asked for.
package enum EMRTDIssuer {
    package static func issue(_ kind: EMRTDDocument.Kind, holder: EMRTDHolder, options: EMRTDIssueOptions)
        throws(EMRTDIssueError) -> EMRTDDocument
    {
        let mrz = holder.mrz
        guard (mrz.format == .td3) == (kind == .passport) else {
            throw EMRTDIssueError(
                "a \(kind.rawValue) carries a \(kind == .passport ? "TD3 (2 × 44)" : "TD1 (3 × 30)") MRZ, not "
                    + "\(mrz.format == .td3 ? "TD3" : "TD1")")
        }
        do throws(MRZ.Invalid) {
            try mrz.validate()
        } catch {
            throw EMRTDIssueError("MRZ: \(error.reason)")
        }
        if let can = options.can, !(can.count == 6 && can.allSatisfy({ $0.isASCII && $0.isNumber })) {
            throw EMRTDIssueError("CAN '\(can)': a card access number has 6 digits")
        }
        if options.paceOnly && options.pace.isEmpty {
            throw EMRTDIssueError("a PACE-only document needs at least one PACE protocol")
        }
        if options.pki != nil && !options.faults.isDisjoint(with: [.expiredCSCA, .unknownCSCA]) {
            throw EMRTDIssueError("the faults expired-csca and unknown-csca make their own PKI: do not give one")
        }
        var groups: [Int: [UInt8]] = [:]
        groups[1] = LDSContents.dataGroup1(mrz)
        do throws(FaceImage.Invalid) {
            groups[2] = try FaceImage.dataGroup2(jpeg: holder.photo ?? FaceImage.testPortrait, sex: mrz.sex)
        } catch {
            throw EMRTDIssueError("photo: \(error.reason)")
        }
        if holder.placeOfBirth != nil || holder.fullDateOfBirth != nil {
            groups[11] = LDSContents.dataGroup11(
                fullName: mrz.fullName, fullDateOfBirth: holder.fullDateOfBirth, placeOfBirth: holder.placeOfBirth)
        }
        if holder.issuingAuthority != nil || holder.dateOfIssue != nil {
            groups[12] = LDSContents.dataGroup12(
                issuingAuthority: holder.issuingAuthority, dateOfIssue: holder.dateOfIssue)
        }
        do throws(ICAOCryptoError) {
            let (chipKey, aaKey, cloneKey) = try ICAOCrypto.wrapping {
                () throws(CryptoError) -> (PrivateKey, PrivateKey, PrivateKey?) in
                let chip = try PrivateKey.generateEC(.brainpoolP256r1)
                let aa: PrivateKey
                let clone: PrivateKey?
                switch options.activeAuthentication {
                case .rsa:
                    aa = try PrivateKey.generateRSA(bits: 1024)
                    clone = options.faults.contains(.cloned) ? try PrivateKey.generateRSA(bits: 1024) : nil
                case .ecdsa:
                    aa = try PrivateKey.generateEC(.prime256v1)
                    clone = options.faults.contains(.cloned) ? try PrivateKey.generateEC(.prime256v1) : nil
                }
                return (chip, aa, clone)
            }
            groups[14] = try dataGroup14(
                chipAuthenticationKey: chipKey, cipher: options.chipAuthenticationCipher, pace: options.pace,
                ecActiveAuthentication: options.activeAuthentication == .ecdsa)
            groups[15] = try dataGroup15(aaKey)
            let country = mrz.issuingState
            var pki: EMRTDTestPKI
            if let given = options.pki {
                pki = given
            } else {
                pki = try EMRTDTestPKI.generate(
                    country: country, today: options.today, expiredCSCA: options.faults.contains(.expiredCSCA))
            }
            if options.faults.contains(.unknownCSCA) {
                pki = try pki.reissuedByUnknownCSCA(country: country, today: options.today)
            }
            let sod = try sod(
                dataGroups: groups, pki: pki, corruptSignature: options.faults.contains(.badSODSignature))
            if options.faults.contains(.tamperedDG), var dg1 = groups[1] {
                // A letter of the name changes: the check digits (which do not cover the name) still hold, so BAC
                // works, but DG1's hash no longer matches EF.SOD.
                let nameStart = dg1.count - (mrz.format == .td3 ? 88 - 5 : 30)
                dg1[nameStart] = dg1[nameStart] == UInt8(ascii: "X") ? UInt8(ascii: "Y") : UInt8(ascii: "X")
                groups[1] = dg1
            }
            var files: [LDSFile: [UInt8]] = [
                .com: LDSContents.com(dataGroups: Array(groups.keys)), .sod: sod, .atrInfo: LDSContents.atrInfo(),
            ]
            for (n, contents) in groups { files[.dataGroup(n)] = contents }
            if !options.pace.isEmpty { files[.cardAccess] = LDSContents.cardAccess(options.pace) }
            return EMRTDDocument(
                kind: kind, files: files, can: options.can, paceOnly: options.paceOnly, pace: options.pace,
                activeAuthenticationKey: try ICAOCrypto.pkcs8(cloneKey ?? aaKey),
                chipAuthenticationKey: try ICAOCrypto.pkcs8(chipKey),
                chipAuthenticationCipher: options.chipAuthenticationCipher, pki: pki, faults: options.faults)
        } catch {
            throw EMRTDIssueError("cannot make the document's keys and signature: \(error.reason)")
        }
    }
}
