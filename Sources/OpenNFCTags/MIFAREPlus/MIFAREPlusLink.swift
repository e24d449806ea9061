internal import OpenNFCBytes
package import OpenNFCRF

/// MIFARE Plus EV1/EV2 commands as frames, and their answers and errors, from the reader's side of NXP's public
/// MIFARE Plus descriptions (MF1P(H)x1y1 EV1, MF1P(H)x2y1 EV2 short data sheets; AN10833). The only place on the
/// reader side where a MIFARE Plus command byte is written (docs/ADDING-A-TAG-FAMILY.md).
///
/// | Command | Native frame | Answer |
/// |---|---|---|
/// | GetVersion | `60`, then `AF`, `AF` | `AF` + 7, `AF` + 7, `90` + UID ‖ batch ‖ week ‖ year |
/// | Read_Sig | `3C 00` | `90` + 56-byte signature |
/// | WritePerso / CommitPerso (SL0) | `A8 BNr(LE) data` / `AA SL` | `90` |
/// | AuthenticateFirst / NonFirst / Continue | `70 KeyNr(LE) LenCap PCDcap2` / `76 KeyNr(LE)` / `72 E(RndA ‖ RndB<<<1)` | `90` + 16 / 16 / 32 or 16 bytes |
/// | Read | `30`–`37 BNr(LE) Ext [MAC]` | `90` + data [+ MAC] |
/// | Write | `A0`–`A3 BNr(LE) data MAC` | `90` [+ MAC] |
/// | ResetAuth | `78` | `90` |
///
/// Framing: ``Framing/wrapped`` (the default) sends the ISO/IEC 7816-4 wrapping EV1 and EV2 accept,
/// `90 CMD 00 00 [Lc rest] 00` → `data ‖ SW1 ‖ status` (SW1 `91`, or `90`), which PC/SC readers and Core NFC's
/// ISO 7816 path carry; ``Framing/native`` sends the frame itself as the ISO-DEP payload (`sendMiFareCommand`).
package struct MIFAREPlusLink {
    package enum Framing: Sendable, Hashable {
        case wrapped, native
    }

    package let frontend: any RFFrontend
    package let framing: Framing

    package init(frontend: any RFFrontend, framing: Framing = .wrapped) {
        self.frontend = frontend
        self.framing = framing
    }

    /// Status bytes (MIFARE Plus EV1 datasheet, error codes).
    package enum Status {
        package static let ok: UInt8 = 0x90
        package static let additionalFrame: UInt8 = 0xAF
        package static let authentication: UInt8 = 0x06
        package static let invalidBlock: UInt8 = 0x09
        package static let notAllowed: UInt8 = 0x0B

        /// What a status byte means.
        package static func meaning(_ status: UInt8) -> String {
            switch status {
            case 0x90: return "success"
            case 0xAF: return "additional frame"
            case 0x05: return "transaction MAC error"
            case 0x06: return "authentication error or access conditions not fulfilled"
            case 0x07: return "too many read or write commands in the session"
            case 0x08: return "invalid MAC"
            case 0x09: return "invalid block number"
            case 0x0A: return "block does not exist (extension error)"
            case 0x0B: return "command not allowed in the current security level or state"
            case 0x0C: return "length or format error"
            case 0x0D: return "not supported"
            case 0x0F: return "general failure"
            default: return "status \(Hex.encode([status]))"
            }
        }
    }

    /// Sends one native command; returns its status byte and the data after it.
    package func send(_ frame: [UInt8], name: String) throws(TagError) -> (status: UInt8, data: [UInt8]) {
        let outgoing: [UInt8]
        switch framing {
        case .native: outgoing = frame
        case .wrapped:
            let rest = Array(frame.dropFirst())
            outgoing = [0x90, frame[0], 0x00, 0x00] + (rest.isEmpty ? [] : [UInt8(rest.count)] + rest) + [0x00]
        }
        let answer: RFResponse
        do {
            answer = try frontend.exchange(outgoing)
        } catch {
            throw .rf(error, during: name)
        }
        guard case .frame(let b) = answer, !b.isEmpty else {
            throw TagError(.invalidResponse, "\(name) answered \(answer), expected a status byte")
        }
        switch framing {
        case .native: return (b[0], Array(b.dropFirst()))
        case .wrapped:
            guard b.count >= 2, b[b.count - 2] == 0x91 || b[b.count - 2] == 0x90 else {
                throw TagError(
                    .invalidResponse, "\(name) answered \(Hex.encode(b.suffix(2))), not a MIFARE Plus status",
                    statusWord: b.count >= 2 ? UInt16(b[b.count - 2]) << 8 | UInt16(b[b.count - 1]) : nil)
            }
            // The wrapped status 00 is the native 90 (as MIFARE DESFire codes success).
            let status = b[b.count - 1] == 0x00 ? Status.ok : b[b.count - 1]
            return (status, Array(b.dropLast(2)))
        }
    }

    /// Sends a command that must answer `90`; returns the data.
    @discardableResult
    package func expectOK(_ frame: [UInt8], name: String) throws(TagError) -> [UInt8] {
        let (status, data) = try send(frame, name: name)
        guard status == Status.ok else { throw Self.refusal(status, name) }
        return data
    }

    static func refusal(_ status: UInt8, _ name: String) -> TagError {
        TagError(.commandRejected, "\(name) refused: \(Hex.encode([status])) (\(Status.meaning(status)))")
    }

    // MARK: Frames

    static func le(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }

    static let getVersion: [UInt8] = [0x60]
    static let additionalFrame: [UInt8] = [0xAF]
    static let readSignature: [UInt8] = [0x3C, 0x00]
    static let resetAuthentication: [UInt8] = [0x78]

    /// WritePerso `A8`: up to 15 blocks from `address`.
    static func writePerso(_ address: UInt16, _ data: [UInt8]) -> [UInt8] { [0xA8] + le(address) + data }
    /// CommitPerso `AA` with the target level (1 or 3).
    static func commitPerso(level: UInt8) -> [UInt8] { [0xAA, level] }
    /// AuthenticateFirst `70` with LenCap 0 (no PCD capabilities: EV0 secure messaging).
    static func authenticateFirst(_ key: UInt16) -> [UInt8] { [0x70] + le(key) + [0x00] }
    /// AuthenticateNonFirst `76`.
    static func authenticateNonFirst(_ key: UInt16) -> [UInt8] { [0x76] + le(key) }
    /// AuthenticateContinue `72` with E(RndA ‖ RndB<<<1).
    static func authenticateContinue(_ cryptogram: [UInt8]) -> [UInt8] { [0x72] + cryptogram }

    /// The SL0/SL3 probe: WritePerso to the address `9090` no chip has (`09` in SL0, `0B` in SL3).
    static let levelProbe: [UInt8] = [0xA8, 0x90, 0x90] + [UInt8](repeating: 0, count: 16)
}

/// How a Read or Write travels (the command code's bits: MIFARE Plus EV1 datasheet, Read and Write commands).
package enum MIFAREPlusCommunication: String, Sendable, Hashable, CaseIterable {
    /// Data in the clear, no MAC on the answer (Read `36`: no MAC either way; Write `A2`: command MACed).
    case plain
    /// Data in the clear, MACed both ways (Read `33`, Write `A3`).
    case maced
    /// Data encrypted, MACed both ways (Read `31`, Write `A1`).
    case encrypted

    var readCode: UInt8 {
        switch self {
        case .plain: return 0x36
        case .maced: return 0x33
        case .encrypted: return 0x31
        }
    }

    var writeCode: UInt8 {
        switch self {
        case .plain: return 0xA2
        case .maced: return 0xA3
        case .encrypted: return 0xA1
        }
    }
}
