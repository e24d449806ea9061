internal import OpenNFCBytes
package import OpenNFCRF

/// Raw ISO/IEC 15693 requests, or raw NFC-A frames to a level-3 tag (ISO/IEC 14443-3: Type 2, Ultralight C), through
/// a PC/SC 2.02 reader's transparent session (PC/SC Part 3 v2.02, the commands Manage Session, Transparent Exchange
/// and Switch Protocol: the `FF C2 00 P2 Lc <data objects> 00` envelope).
///
/// | Step | Bytes |
/// |---|---|
/// | Start (probe, at activation) | `FF C2 00 00 02 81 00 00` → `C0 03 00 90 00 90 00` |
/// | Switch protocol (at activation) | `FF C2 00 02 04 8F 02 02 03 00`: ISO 15693 (`02`), layer 3 (`03`); NFC-A `8F 02 00 03`: ISO/IEC 14443 Type A (`00`), layer 3 |
/// | Request | `FF C2 00 01 Lc [5F 46 04 <timer µs, LSB first>] 95 <len> <flags cmd [UID] params> 00` (the reader adds CRC_15693) |
/// | Answer | `C0 03 00 90 00 [92 01 <bits>] [96 02 <status>] 97 <len> <flags data> 90 00` (the reader checks and removes the CRC) |
/// | NFC-A 4-bit answer | `92 01 04` (4 valid bits) with `97 01 0A` → ACK, `97 01 0n` → NAK n; a 1-byte answer without `92` is read the same way (no Type 2 command answers one data byte) |
/// | Tag silent | `C0 03 01 64 01` ("no ICC response") → `RFError.timeout` |
/// | Other status in `C0` | `RFError.protocolViolation` naming the data object and status |
/// | End (at deactivation) | `FF C2 00 00 02 82 00 00` |
///
/// Writes, locks and custom commands carry a 1-second timer (`5F 46 04 40 42 0F 00`): EEPROM programming outlasts
/// the default response timeout of some readers, which then report "no ICC response" for a write that succeeded.
///
/// | Reader | Transparent session for ISO 15693 |
/// |---|---|
/// | ACS ACR1552U / ACR1555U | yes (protocol `02`, layer 3) |
/// | HID OMNIKEY 5022 / 5422 / 5x27 | yes (PC/SC 2.02 transparent exchange; byte-level behaviour not verified on hardware [?]) |
/// | Identiv uTrust 3700 F / 4701 F, SCM SCL01x | yes where the firmware offers `FF C2` (model dependent [?]) |
/// | `opennfc emulate` (vpcd) | yes: tested end to end through pcscd |
/// | ACS ACR122U (PN532), ACR1252U / ACR1255U (PN512) | no: these readers do not carry ISO 15693 at all (no such tag reaches them) |
///
/// | Reader | Transparent session for NFC-A level-3 tags (chosen only when the ACS pass-through is not there) |
/// |---|---|
/// | HID OMNIKEY 5022 / 5422, Identiv uTrust 3700 F, SCM SCL3711 and other PC/SC 2.02 readers | where the firmware offers `FF C2` with protocol `00` layer 3 (model dependent; not verified on hardware [?]) |
/// | `opennfc emulate --reader pcsc` (vpcd without the ACS forms) | yes: tested end to end through pcscd |
///
/// Byte forms come from the PC/SC specification and a public ACR1552U trace; no physical reader is available to CI.
package struct TransparentSessionProfile: PCSCProfile {
    package var name: String {
        technology == .nfcA
            ? "PC/SC 2.02 transparent session (ISO/IEC 14443-3 Type A)" : "PC/SC 2.02 transparent session (ISO 15693)"
    }

    /// `.nfcV` (ISO 15693) or `.nfcA` (level-3 NFC-A frames).
    package var technology: RFTechnology
    /// True when the session was started already (``PCSCProfileSelection``'s probe starts it).
    package var sessionStarted: Bool

    package init(technology: RFTechnology = .nfcV, sessionStarted: Bool = false) {
        self.technology = technology
        self.sessionStarted = sessionStarted
    }

    /// A short APDU carries 255 bytes of data objects: the timer (7) and the transceive header (2) leave 246 for the
    /// request. The answer's 256 bytes hold the status (5), bit framing (3), response status (4) and `97 len` (2).
    package var capabilities: RFCapabilities {
        technology == .nfcA
            ? RFCapabilities(
                maxCommandSize: 246, maxResponseSize: 242, rawFrames: true, technologies: [.nfcA], frameModes: [.nfcA])
            : RFCapabilities(
                maxCommandSize: 246, maxResponseSize: 242, rawFrames: false, technologies: [.nfcV], frameModes: [.nfcV])
    }

    static let start: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x81, 0x00, 0x00]
    static let end: [UInt8] = [0xFF, 0xC2, 0x00, 0x00, 0x02, 0x82, 0x00, 0x00]
    static let switchToISO15693: [UInt8] = [0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x02, 0x03, 0x00]
    /// ISO/IEC 14443 Type A (`00`), layer 3: raw frames, the reader adding and checking CRC_A.
    static let switchToTypeA: [UInt8] = [0xFF, 0xC2, 0x00, 0x02, 0x04, 0x8F, 0x02, 0x00, 0x03, 0x00]
    /// `5F 46 04` timer of 1,000,000 µs, LSB first.
    static let writeTimer: [UInt8] = [0x5F, 0x46, 0x04, 0x40, 0x42, 0x0F, 0x00]

    /// Starts a transparent session; true when the reader accepted it (the reader speaks PC/SC 2.02 `FF C2`).
    static func startSession(on card: PCSCCard) -> Bool {
        guard let r = try? card.transmit(start), r.isSuccess, let objects = try? DataObject.decodeAll(r.data),
            let status = objects.first(where: { $0.tag == 0xC0 })
        else { return false }
        return status.value.count == 3 && status.value[1] == 0x90 && status.value[2] == 0x00
    }

    package func begin(on card: PCSCCard) throws(RFError) {
        if !sessionStarted {
            guard Self.startSession(on: card) else {
                throw RFError(.frontendFailure, "reader '\(card.reader)' refused to start a transparent session")
            }
        }
        let command = technology == .nfcA ? Self.switchToTypeA : Self.switchToISO15693
        _ = try Self.status(of: try card.transmitForRF(command), reader: card.reader, doing: "switch")
    }

    package func end(on card: PCSCCard) {
        _ = try? card.transmit(Self.end)
    }

    /// The wrapped form of `request` (an ISO 15693 request, or an NFC-A frame, without CRC). ISO 15693 writes and
    /// NFC-A WRITE / COMPATIBILITY WRITE carry the 1-second timer.
    static func wrap(_ request: [UInt8], technology: RFTechnology = .nfcV) -> [UInt8] {
        let reads: Set<UInt8> = [0x01, 0x20, 0x23, 0x2B, 0x2C, 0x30, 0x33, 0x3B, 0x3C]
        let write =
            technology == .nfcA
            ? [0xA2, 0xA0].contains(request.first ?? 0) : request.count >= 2 && !reads.contains(request[1])
        let timer = write ? writeTimer : []
        let objects = timer + [0x95, UInt8(request.count)] + request
        return [0xFF, 0xC2, 0x00, 0x01, UInt8(objects.count)] + objects + [0x00]
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard !command.isEmpty else { throw RFError(.protocolViolation, "empty request") }
        guard command.count <= 246 else {
            throw RFError(.frameTooLong, "\(command.count)-byte request; a transparent exchange carries at most 246")
        }
        let objects = try Self.status(
            of: try card.transmitForRF(Self.wrap(command, technology: technology)), reader: card.reader,
            doing: "transceive")
        guard let answer = objects.first(where: { $0.tag == 0x97 }), !answer.value.isEmpty else {
            throw RFError(.protocolViolation, "'\(card.reader)' answered the transceive without a 97 (ICC response)")
        }
        // NFC-A: a 4-bit ACK/NAK comes as one byte (with `92 01 04`: 4 valid bits).
        return technology == .nfcA ? fourBitAnswer(answer.value) : .frame(answer.value)
    }

    /// The data objects of a transparent-session answer whose `C0` status is `00 90 00`.
    static func status(of r: APDUResponse, reader: String, doing what: String) throws(RFError) -> [DataObject] {
        guard r.isSuccess else {
            throw RFError(
                .protocolViolation, "transparent \(what) refused on '\(reader)': SW \(Hex.encode([r.sw1, r.sw2]))")
        }
        let objects: [DataObject]
        do { objects = try DataObject.decodeAll(r.data) } catch {
            throw RFError(
                .protocolViolation, "'\(reader)' answered malformed data objects (\(error)): \(r.data.hexString)")
        }
        guard let c0 = objects.first(where: { $0.tag == 0xC0 }), c0.value.count == 3 else {
            throw RFError(.protocolViolation, "'\(reader)' answered without a C0 status object: \(r.data.hexString)")
        }
        let sw = UInt16(c0.value[1]) << 8 | UInt16(c0.value[2])
        switch sw {
        case 0x9000: return objects
        case 0x6401:
            throw RFError(
                .timeout,
                "the tag did not answer (no ICC response, C0 \(c0.value.hexString)); a write may still have succeeded")
        case 0x6400: throw RFError(.timeout, "the reader reported no IFD response (C0 \(c0.value.hexString))")
        default:
            throw RFError(
                .protocolViolation,
                "transparent \(what) failed on '\(reader)': data object \(c0.value[0]) status \(Hex.encode([c0.value[1], c0.value[2]]))"
            )
        }
    }
}
