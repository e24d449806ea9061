internal import OpenNFCBytes
package import OpenNFCRF

/// MIFARE Classic through PC/SC Part 3 pseudo-APDUs (PC/SC Part 3 §3.2.2.1; ACS ACR122U/ACR1252U API manuals for the
/// key slots and value-block commands): the reader performs Crypto1, the host names keys and blocks.
///
/// | Reader procedure step (``RFFrontend``) | Sent as | Answer |
/// |---|---|---|
/// | `authenticate` of a block with key A/B | LOAD KEYS `FF 82 00 <n> 06 <key>`, then GENERAL AUTHENTICATE `FF 86 00 00 05 01 00 <block> <60/61> <n>` | `90 00` → authenticated; another status → `protocolViolation` naming it (the procedure re-activates the card) |
/// | READ `30 BB` | READ BINARY `FF B0 00 BB 10` | 16 bytes + `90 00` → the block; any other status → NAK 4 |
/// | WRITE `A0 BB`, then 16 bytes | (ACK at once), then UPDATE BINARY `FF D6 00 BB 10 <16 bytes>` | `90 00` → ACK; else NAK 4 |
/// | INCREMENT / DECREMENT `C1`/`C0 BB`, then 4 bytes | (ACK, then no answer: the operand is kept) | — |
/// | TRANSFER `B0 BB` after INCREMENT/DECREMENT of BB | ACS VALUE BLOCK OPERATION `FF D7 00 BB 05 <01 inc / 02 dec> <operand, 4 bytes MSB first>` | `90 00` → ACK; else NAK 4 |
/// | TRANSFER `B0 TT` after RESTORE `C2 BB` | ACS RESTORE VALUE BLOCK `FF D7 00 BB 02 03 TT` | `90 00` → ACK; else NAK 4 |
/// | TRANSFER to another block after INCREMENT/DECREMENT, any other frame | — | `unsupported`: the ACS value commands increment in place |
///
/// `<n>`, the key number, follows the reader family: ``KeyConvention/acs`` uses volatile slot `00` for key A and `01`
/// for key B; ``KeyConvention/identiv`` (Identiv/SCM, HID OMNIKEY) names the key by its type, `60` or `61`, in both
/// commands (docs/PCSC.md, "MIFARE Classic"). A reader keeps one authenticated sector at a time, as the chip does.
package final class MifareClassicProfile: PCSCProfile, @unchecked Sendable {
    /// How a reader family numbers the keys of LOAD KEYS and GENERAL AUTHENTICATE.
    package enum KeyConvention: String, Sendable {
        /// ACS readers: P2 of LOAD KEYS and the key byte of GENERAL AUTHENTICATE are a volatile slot, 00 or 01.
        case acs
        /// Identiv/SCM and OMNIKEY readers: the key number is the key type, 60 (key A) or 61 (key B).
        case identiv
    }

    /// PC/SC Part 3 card names of MIFARE Classic: 1K `00 01`, 4K `00 02`, Mini `00 26`.
    package static let cardNames: Set<UInt16> = [0x0001, 0x0002, 0x0026]

    package let convention: KeyConvention

    /// The second part of a two-part command, or the value waiting for TRANSFER. Only the frontend's one serial
    /// executor touches it (``RFFrontend`` is not thread-safe), hence `@unchecked Sendable`.
    private enum Pending {
        case write(UInt8)
        case operand(command: UInt8, block: UInt8)
        case transfer(command: UInt8, block: UInt8, operand: Int32)
    }

    private var pending: Pending?

    package init(convention: KeyConvention) { self.convention = convention }

    /// The convention a reader's name implies: Identiv, SCM, SCL and OMNIKEY readers number keys by type; ACS and
    /// every other reader (`opennfc emulate` included) by slot.
    package convenience init(forReaderNamed name: String) {
        let n = name.uppercased()
        let identiv = ["IDENTIV", "SCM ", "SCL", "OMNIKEY", "HID "].contains { n.contains($0) }
        self.init(convention: identiv ? .identiv : .acs)
    }

    package var name: String { "PC/SC Part 3 MIFARE Classic (\(convention.rawValue) key numbers)" }

    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 16, maxResponseSize: 16, rawFrames: false, technologies: [.nfcA],
            mifareClassicAuthentication: true)
    }

    package func begin(on card: PCSCCard) throws(RFError) { pending = nil }
    package func end(on card: PCSCCard) { pending = nil }

    /// LOAD KEYS and GENERAL AUTHENTICATE.
    package func authenticate(
        block: UInt8, keyType: RFAuthentication.MiFareKeyType, key: [UInt8], on card: PCSCCard
    ) throws(RFError) {
        pending = nil
        let number: UInt8 =
            switch convention {
            case .acs: keyType == .a ? 0x00 : 0x01
            case .identiv: keyType.rawValue
            }
        let what = "authentication of block \(block) with key \(keyType == .a ? "A" : "B")"
        let load = try card.transmitForRF([0xFF, 0x82, 0x00, number, 0x06] + key)
        guard load.isSuccess else {
            throw RFError(
                .protocolViolation,
                "\(what): LOAD KEYS into key number \(Hex.encode([number])) answered "
                    + "\(Hex.encode([load.sw1, load.sw2])) on '\(card.reader)'")
        }
        let auth = try card.transmitForRF([0xFF, 0x86, 0x00, 0x00, 0x05, 0x01, 0x00, block, keyType.rawValue, number])
        guard auth.isSuccess else {
            throw RFError(
                .protocolViolation,
                "\(what) failed: GENERAL AUTHENTICATE answered \(Hex.encode([auth.sw1, auth.sw2])) (wrong key)")
        }
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        let waiting = pending
        pending = nil
        switch (waiting, command.first, command.count) {
        case (.write(let block)?, _, 16):
            let r = try card.transmitForRF([0xFF, 0xD6, 0x00, block, 0x10] + command)
            return r.isSuccess ? .ack : .nak(4)
        case (.operand(let code, let block)?, _, 4):
            let v = Int32(
                bitPattern: UInt32(command[0]) | UInt32(command[1]) << 8 | UInt32(command[2]) << 16
                    | UInt32(command[3]) << 24)
            pending = .transfer(command: code, block: block, operand: v)
            // The chip does not answer the operand when it accepts it (MF1S50yyX §10.5): neither does this profile.
            throw RFError(.timeout, "no answer (the value operation waits for TRANSFER)")
        case (.transfer(let code, let block, let operand)?, 0xB0, 2):
            let target = command[1]
            let apdu: [UInt8]
            if code == 0xC2 {
                apdu = [0xFF, 0xD7, 0x00, block, 0x02, 0x03, target]
            } else {
                guard target == block else {
                    throw RFError(
                        .unsupported,
                        "'\(card.reader)': the ACS value commands (FF D7) increment or decrement a block in place; "
                            + "TRANSFER of block \(block)'s value to block \(target) needs a reader with raw frames")
                }
                let u = UInt32(bitPattern: operand)
                apdu =
                    [0xFF, 0xD7, 0x00, block, 0x05, code == 0xC1 ? 0x01 : 0x02]
                    + [UInt8(u >> 24), UInt8(u >> 16 & 0xFF), UInt8(u >> 8 & 0xFF), UInt8(u & 0xFF)]
            }
            return try card.transmitForRF(apdu).isSuccess ? .ack : .nak(4)
        case (_, 0x30, 2):
            let r = try card.transmitForRF([0xFF, 0xB0, 0x00, command[1], 0x10])
            guard r.isSuccess else { return .nak(4) }
            guard r.data.count == 16 else {
                throw RFError(
                    .protocolViolation,
                    "READ BINARY of block \(command[1]) answered \(r.data.count) bytes instead of 16 on '\(card.reader)'"
                )
            }
            return .frame(r.data)
        case (_, 0xA0, 2):
            pending = .write(command[1])
            return .ack
        case (_, 0xC0, 2), (_, 0xC1, 2), (_, 0xC2, 2):
            pending = .operand(command: command[0], block: command[1])
            return .ack
        case (_, 0xB0, 2):
            // TRANSFER without a value operation before it: the chip refuses (MF1S50yyX §10.5).
            return .nak(4)
        default:
            let what = command.first.map { "command \(Hex.encode([$0]))" } ?? "an empty command"
            throw RFError(
                .unsupported,
                "reader '\(card.reader)' carries MIFARE Classic as PC/SC Part 3 pseudo-APDUs (authenticate, READ, "
                    + "WRITE, value operations); \(what) has none")
        }
    }
}
