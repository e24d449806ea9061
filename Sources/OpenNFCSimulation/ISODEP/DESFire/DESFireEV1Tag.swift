/// A virtual MIFARE DESFire EV1 (MF3ICD41 class): ISO-DEP card answering the native DESFire commands, their
/// ISO/IEC 7816-4 wrapping (CLA `90`), and ISO 7816-4 SELECT / READ BINARY / UPDATE BINARY on applications and
/// files created with ISO identifiers — which is how the NFC Forum NDEF mapping works on it (NXP AN11004; AOSP rw_t4t.c).
/// It receives the INF field of each ISO-DEP I-block.
///
/// | Feature | Emulated | Notes |
/// |---|---|---|
/// | Activation | ATQA `0344`, SAK `20`, ATS `06 75 77 81 02 80` (ISO/IEC 14443-3 §6; NXP AN10833) | FSC 64, FWI 8, CID supported |
/// | Framing | native (`CMD params` → `status data`), ISO-wrapped (`90 CMD 00 00 [Lc data] [00]` → `data 91 status`) | wrapped: P1-P2 ≠ `0000` `6A 86`, Le ≠ `00` or extended `67 00`, malformed `67 00` [?: real-card SWs unverified] |
/// | GetVersion `60` | three frames with `AF` chaining; EV1 4K values of a real trace | ``DESFireEV1Tag/Version`` |
/// | GetApplicationIDs `6A` | 19 AIDs per frame, `AF` chaining; PICC level only (`9D` otherwise [?]) | |
/// | SelectApplication `5A` | `000000` = PICC; unknown AID `A0` | also sets the ISO current DF |
/// | GetFileIDs `6F`, GetISOFileIDs `61`, GetFileSettings `F5`, GetKeySettings `45` | selected application (`9D` at PICC level [?]) | |
/// | GetDFNames `6D` | one application per frame, `AF` chaining; PICC level only | |
/// | CreateApplication `CA`, DeleteApplication `DA` | with ISO DF id and DF name; at most 28; duplicate `DE`, full `CE` | allowed while key settings bit 2 ("free create/delete") is set, as in the factory state `0F`; otherwise `AE` |
/// | CreateStdDataFile `CD`, DeleteFile `DF` | with ISO file id when the application has them; duplicate `DE` | same rule with the application's key settings; no memory accounting, but a file larger than the chip's storage (GetVersion storage byte) is `0E` |
/// | ReadData `BD` / WriteData `3D` | standard and backup data files, 59 data bytes per frame, `AF` chaining both ways | offset/length past the file `BE`, no such file `F0`, file number > 31 `9E`, bad length `7E`, a value or record file `9D` |
/// | Backup, value and record files; CommitTransaction `C7`, AbortTransaction `A7` | CreateBackupDataFile `CB`, CreateValueFile `CC`, CreateLinear/CyclicRecordFile `C1`/`C0`, GetValue `6C`, Credit `0C`, Debit `DC`, LimitedCredit `1C`, WriteRecord `3B`, ReadRecords `BB`, ClearRecordFile `EB` | `DESFireMachine+Transaction.swift` (capability table there) |
/// | Access rights | free (`E`) granted; key-protected `AE` without the key's session; never (`F`) `9D`; over ISO both `69 82` | |
/// | Communication modes | plain, MACed, enciphered as the file says when a key grants the access, in EV1 (CMAC, CRC32) and legacy (4-byte MAC, CRC16) sessions | `DESFireMachine+Security.swift` |
/// | Tearing | WriteData on a standard file commits when complete: torn then, only the first `tearAfter` bytes; UPDATE BINARY likewise; transactions: see the transaction table | a chain torn before its last frame commits nothing [?] |
/// | ISO 7816-4 | the shared ``ISO7816Engine``: DF by name or ISO id, EF by ISO id, READ/UPDATE BINARY | standard files; backup files read only; MLe 256, MLc 255, short APDUs |
/// | Keys and authentication | PICC master key and per-application keys (DES, 2K3DES, 3K3DES, AES); `0A`, `1A`, `AA`; session keys; GetKeyVersion, ChangeKey, ChangeKeySettings, GetCardUID (in EV1 and legacy sessions), FormatPICC, GetFreeMemory | `DESFireMachine+Security.swift` (capability table there) |
/// | SetConfiguration `5C`, ChangeFileSettings `5F` | options `00` (format disabled, random ID), `01` (default key), `02` (user ATS); file settings in the mode the Change right says | `DESFireMachine+Configuration.swift` (capability table there) |
/// | Random ID | a random 4-byte UID (`08` first, ATQA `0304`) at each power-up; GetCardUID gives the real one; tag files keep the real one | |
/// | **Not emulated** | ISO 7816 access to key-protected files (`69 82`); the per-file memory overhead of GetFreeMemory; EV2/EV3 commands | not done yet |
package import OpenNFCCrypto

public final class DESFireEV1Tag: VirtualTag {
    public let chip = "desfire-ev1"
    /// The activation as configured (real UID, factory or tag-file ATS); ``activation`` applies random ID and the
    /// ATS SetConfiguration gave.
    private var configuredActivation: VirtualActivation

    /// What anticollision, SELECT and RATS report now (with random ID: this power cycle's random UID).
    public var activation: VirtualActivation {
        get { machine.presented(configuredActivation) }
        set { configuredActivation = newValue }
    }

    /// The activation without random ID and user ATS: what tag files store.
    package var realActivation: VirtualActivation { configuredActivation }

    /// What SetConfiguration set.
    public var configuration: DESFireConfiguration {
        get { machine.configuration }
        set { machine.configuration = newValue }
    }

    /// The PICC master key settings (GetKeySettings at PICC level).
    public var piccKeySettings: UInt8 {
        get { machine.piccKeySettings }
        set { machine.piccKeySettings = newValue }
    }

    var machine: DESFireMachine

    /// The ISO-DEP activation of a DESFire EV1 with this UID.
    package static func defaultActivation(uid: [UInt8]) -> VirtualActivation {
        VirtualActivation(
            uid: uid, sensRes: 0x0344, selRes: 0x20, ats: [0x06, 0x75, 0x77, 0x81, 0x02, 0x80])
    }

    /// A DESFire EV1 with these applications (none: as NXP ships it, PICC only).
    ///
    /// - Throws: ``ISODEPCardError`` when the UID is not 7 bytes, an AID is `000000` or above 24 bits or repeated,
    ///   a file number is above 31 or repeated within its application, or a DF name is longer than 16 bytes.
    public init(
        uid: [UInt8], applications: [DESFireApplication] = [], version: Version = Version(),
        masterKey: DESFireKey = .zero(.des)
    ) throws(ISODEPCardError) {
        guard uid.count == 7 else {
            throw ISODEPCardError(.invalidConfiguration, "DESFire EV1 UID of \(uid.count) bytes: must be 7")
        }
        guard version.hardware.count == 7, version.software.count == 7, version.batch.count == 5 else {
            throw ISODEPCardError(.invalidConfiguration, "GetVersion needs 7 hardware, 7 software and 5 batch bytes")
        }
        var seen: Set<UInt32> = []
        for app in applications {
            let name = "application \(String(app.aid, radix: 16, uppercase: true))"
            guard app.aid != 0, app.aid <= 0xFF_FFFF, seen.insert(app.aid).inserted else {
                throw ISODEPCardError(.invalidConfiguration, "\(name): AID must be unique, non-zero and 24-bit")
            }
            guard (app.dfName?.count ?? 1) <= 16, app.dfName?.isEmpty != true else {
                throw ISODEPCardError(.invalidConfiguration, "\(name): DF name must have 1…16 bytes")
            }
            guard app.keys.count == Int(app.keyCount & 0x0F), (1...14).contains(app.keys.count) else {
                throw ISODEPCardError(
                    .invalidConfiguration,
                    "\(name): \(app.keys.count) keys, the key count byte says \(app.keyCount & 0x0F)")
            }
            let family = DESFireKey.KeyType.forKeyCountByte(app.keyCount)
            for key in app.keys where key.type != family && !(family == .des && key.type == .tdes2) {
                throw ISODEPCardError(
                    .invalidConfiguration,
                    "\(name): a \(key.type.rawValue) key where the key count byte says \(family.rawValue)")
            }
            var numbers: Set<UInt8> = []
            for file in app.files {
                guard file.number <= 31, numbers.insert(file.number).inserted else {
                    throw ISODEPCardError(
                        .invalidConfiguration, "\(name): file number \(file.number) invalid or repeated")
                }
                guard file.contents.count <= 0xFF_FFFF else {
                    throw ISODEPCardError(.invalidConfiguration, "\(name): file \(file.number) exceeds 24-bit size")
                }
            }
        }
        self.configuredActivation = Self.defaultActivation(uid: uid)
        let limits = ISO7816Engine.Limits(mle: 256, mlc: 255, extendedLength: false)
        self.machine = DESFireMachine(
            picc: DESFirePICC(applications: applications, masterKey: masterKey), engine: ISO7816Engine(limits: limits),
            version: version, uid: uid)
    }

    /// The PICC master key.
    public var masterKey: DESFireKey { machine.picc.masterKey }

    /// Where the card's RndB comes from; inject a ``SeededRandomSource`` for reproducible transcripts.
    package var random: any RandomSource {
        get { machine.random }
        set { machine.random = newValue }
    }

    /// The applications as stored now (files included).
    public var applications: [DESFireApplication] { machine.picc.applications }

    /// GetVersion's answers.
    public var version: Version { machine.version }

    public func reset() {
        machine.reset()
    }

    /// Power-up: with random ID a new UID is drawn for this power cycle.
    public func powerOn() {
        machine.powerOn()
    }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        let answer: [UInt8]
        switch frame.first {
        case nil:
            answer = [DESFireStatus.lengthError.rawValue]
        case 0x00:
            guard let response = machine.iso(frame, tearAfter: tearAfter).response else { return .silence }
            answer = response.encoded
        case 0x90:
            answer = wrapped(frame, tearAfter: tearAfter).encoded
        default:
            let reply = machine.native(frame[0], frame.dropFirst(), tearAfter: tearAfter)
            answer = [reply.status.rawValue] + reply.data
        }
        return tearAfter == nil ? .data(answer) : .silence
    }

    /// ISO/IEC 7816-4 wrapping of a native command (NXP AN12752, ISO/IEC 7816-4 wrapping).
    private func wrapped(_ frame: [UInt8], tearAfter: Int?) -> ISO7816Response {
        let command: ISO7816Command
        do {
            command = try ISO7816Command(decoding: frame)
        } catch {
            return .status(.wrongLength)
        }
        guard !command.isExtended, command.ne == nil || command.ne == 256 else { return .status(.wrongLength) }
        guard command.p1 == 0, command.p2 == 0 else { return .status(.incorrectP1P2) }
        let reply = machine.native(command.ins, command.data[...], tearAfter: tearAfter)
        return ISO7816Response(data: reply.data, status: ISO7816Status(0x91, reply.status.rawValue))
    }
}
