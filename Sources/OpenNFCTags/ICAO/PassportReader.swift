package import OpenNFCCrypto

/// How to read a document.
package struct PassportReadOptions: Sendable {
    /// The MRZ information (BAC, or PACE with the MRZ) or the CAN (PACE only).
    package var password: PACEPassword
    /// The CSCAs for the chain check; nil skips it (reported as not checked).
    package var cscas: CSCAList?
    /// The time certificate validity is judged at, seconds since 1970.
    package var now: Int
    package var random: any RandomSource
    /// The largest Le per READ BINARY; nil: the most a short protected answer holds.
    package var chunkLength: Int?
    /// Whether to try PACE (from EF.CardAccess) before BAC.
    package var usePACE = true

    package init(password: PACEPassword, cscas: CSCAList? = nil, now: Int, random: any RandomSource) {
        self.password = password
        self.cscas = cscas
        self.now = now
        self.random = random
    }
}

/// What a read found and verified.
package struct PassportReadResult: Sendable {
    package typealias Check = PassiveAuthenticationResult.Check
    /// `BAC`, or `PACE` with its protocol.
    package var accessControl = ""
    package var com: EFCOM?
    /// The data groups read, as raw files.
    package var dataGroups: [Int: [UInt8]] = [:]
    /// Data groups listed but not read, with why (DG3/DG4 need Terminal Authentication).
    package var skipped: [Int: String] = [:]
    package var sod: [UInt8]?
    package var mrz: MRZ?
    package var face: FaceImage?
    package var details: [(String, String)] = []
    package var passive: PassiveAuthenticationResult?
    package var activeAuthentication: Check = .notChecked("no DG15")
    package var chipAuthentication: Check = .notChecked("no DG14")
    /// The chip's buffer sizes from EF.ATR/INFO, when they were read and allow extended length.
    package var extendedLength: ExtendedLengthInfo?
    /// APDUs sent.
    package var apduCount = 0

    /// Whether every check that ran passed.
    package var passed: Bool {
        (passive?.passed ?? false) && !activeAuthentication.failed && !chipAuthentication.failed
    }
}

extension PassiveAuthenticationResult.Check {
    package var failed: Bool { if case .failed = self { true } else { false } }
}

/// Reads an eMRTD the way ICAO Doc 9303 Part 11 §4.2 (chip access procedure) and §5–6 describe: EF.CardAccess in
/// the MF → PACE when offered, else BAC; the eMRTD application; EF.COM; DG14 and Chip Authentication; the other data
/// groups and EF.SOD; Active Authentication with DG15; passive authentication.
package enum PassportReader {
    package static func read(transport: any EMRTDTransport, options: PassportReadOptions) throws(PassportError)
        -> PassportReadResult
    {
        let session = EMRTDSession(transport: transport)
        var result = PassportReadResult()
        defer { _ = result }
        // EF.ATR/INFO only matters when the transport carries more than a short answer; the MF is selected once for
        // it and EF.CardAccess.
        let extendedTransport = transport.maxResponseLength > 258 && options.chunkLength == nil
        if options.usePACE || extendedTransport {
            _ = try session.send(CommandAPDU(ins: 0xA4, p1: 0x00, p2: 0x0C), name: "SELECT MF")
        }
        if extendedTransport, let info = try ExtendedLengthInfo.read(session), info.maxResponseLength > 258 {
            result.extendedLength = info
        }
        let access = options.usePACE ? try cardAccessPACE(session) : nil
        let pace = access?.info
        func establish() throws(PassportError) {
            if let pace {
                try PACE.perform(
                    session: session, info: pace, password: options.password, random: options.random,
                    ambiguous: access?.ambiguous ?? false)
                result.accessControl = "PACE \(pace.oid)"
                try LDSFileReader(session: session).selectApplication()
            } else {
                guard case .mrz(let info) = options.password else {
                    throw PassportError(
                        .invalidInput, "the document offers no PACE, so a CAN cannot open it; give the MRZ")
                }
                session.secureMessaging = nil
                try LDSFileReader(session: session).selectApplication()
                try BAC.perform(session: session, keyInformation: info, random: options.random)
                result.accessControl = "BAC"
            }
        }
        try establish()
        func reader() -> LDSFileReader {
            // Extended length: the largest Le whose protected answer fits both the chip's and the transport's
            // response APDU, less SW1 SW2.
            if let info = result.extendedLength, let sm = session.secureMessaging {
                let limit = min(info.maxResponseLength, transport.maxResponseLength, 65538) - 2
                let chunk = max(sm.maxShortLe, sm.maxLe(responseData: limit))
                return LDSFileReader(session: session, chunkLength: chunk, firstReadLength: chunk)
            }
            return LDSFileReader(session: session, chunkLength: options.chunkLength)
        }
        guard let comBytes = try reader().read(fid: 0x011E, name: "EF.COM") else {
            throw PassportError(.malformed, "the document has no EF.COM")
        }
        let com = try EFCOM(comBytes)
        result.com = com
        var securityInfos: SecurityInfos?
        if com.dataGroups.contains(14), let dg14 = try reader().read(fid: LDS.fileID(dataGroup: 14), name: "DG14") {
            result.dataGroups[14] = dg14
            let infos = try SecurityInfos(dg14: dg14)
            securityInfos = infos
            if !infos.chipAuthenticationKeys.isEmpty {
                do {
                    try ChipAuthentication.perform(session: session, securityInfos: infos, random: options.random)
                    result.chipAuthentication = .passed
                } catch  where error.code == .commandRejected || error.code == .secureMessaging {
                    result.chipAuthentication = .failed("Chip Authentication was refused: \(error)")
                    try establish()
                }
            } else {
                result.chipAuthentication = .notChecked("DG14 lists no Chip Authentication key")
            }
        }
        for n in com.dataGroups where n != 14 {
            if n == 3 || n == 4 {
                result.skipped[n] = "DG\(n) needs Terminal Authentication (EAC), which this reader does not do"
                continue
            }
            let name = "DG\(n)"
            do {
                if let file = try reader().read(fid: LDS.fileID(dataGroup: n), name: name) {
                    result.dataGroups[n] = file
                }
            } catch
                where error.code == .secureMessaging && result.chipAuthentication == .passed
                && result.dataGroups.count == 1
            {
                // The first answer under the Chip Authentication keys did not verify: the chip lacks DG14's key.
                result.chipAuthentication = .failed(
                    "the chip's first answer under the new keys has a wrong MAC: \(error.reason)")
                try establish()
                if let file = try reader().read(fid: LDS.fileID(dataGroup: n), name: name) {
                    result.dataGroups[n] = file
                }
            }
        }
        result.sod = try reader().read(fid: 0x011D, name: "EF.SOD")
        if let dg1 = result.dataGroups[1] { result.mrz = try DG1.mrz(dg1) }
        if let dg2 = result.dataGroups[2] { result.face = try? FaceImage.firstFace(dg2: dg2) }
        for n in [11, 12] {
            if let g = result.dataGroups[n] { result.details += try DetailsGroup.fields(g, dataGroup: n) }
        }
        if let dg15 = result.dataGroups[15] {
            let why = try ActiveAuthentication.perform(
                session: session, dg15: try DG15.publicKeyInfo(dg15),
                signatureAlgorithm: securityInfos?.activeAuthenticationSignatureAlgorithm, random: options.random)
            result.activeAuthentication = why.map { .failed($0) } ?? .passed
        }
        if let sod = result.sod {
            result.passive = try PassiveAuthentication.verify(
                sod: sod, dataGroups: result.dataGroups, cscas: options.cscas, now: options.now)
        }
        result.apduCount = session.apduCount
        return result
    }

    /// EF.CardAccess's first usable PACEInfo (ECDH Generic Mapping on a named curve), or nil when the chip has no
    /// EF.CardAccess or offers nothing usable (then BAC is used). The MF is the current DF.
    static func cardAccessPACE(_ session: EMRTDSession) throws(PassportError) -> (info: PACEInfo, ambiguous: Bool)? {
        let file = try PACECardAccess.readWhole { (offset, le) throws(PassportError) in
            let p1p2 = offset == 0 ? (UInt8(0x9C), UInt8(0)) : (UInt8(offset >> 8), UInt8(offset & 0xFF))
            let r = try session.send(
                CommandAPDU(ins: 0xB0, p1: p1p2.0, p2: p1p2.1, le: le), name: "READ BINARY EF.CardAccess at \(offset)")
            return (r.data, r.sw)
        }
        guard let file else { return nil }
        let infos: [PACEInfo]
        do { infos = try PACEInfo.all(in: file) } catch {
            throw PassportError(.malformed, "EF.CardAccess: \(error)")
        }
        let usable = infos.first {
            $0.mapping == .ecdhGeneric && $0.cipher != nil
                && $0.parameterID.flatMap { NamedCurve(standardizedParameterID: $0) } != nil
        }
        return usable.map { ($0, infos.count > 1) }
    }
}
