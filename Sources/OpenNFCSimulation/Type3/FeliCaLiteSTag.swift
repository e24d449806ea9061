public import OpenNFCRF

/// A byte-accurate FeliCa Lite-S (Sony RC-S966), written from the card side of the FeliCa Lite-S User's Manual
/// (memory map §3, Memory Configuration §3.3, MAC and authentication §4, commands §5) and JIS X 6319-4 (frame and
/// Polling §8.5). Frames arrive without LEN and CRC (the field's job): `code IDm(8) parameters`; answers go back the
/// same way.
///
/// | Command | Code | Supported | Answer |
/// |---|---|---|---|
/// | Polling | `00 SC SC RC TSN` | ✓ | `01 IDm PMm` (RC 00), `+ SC` (RC 01, the system code matched, native `88 B4` for a wildcard), `+ 00 01` (RC 02: 212 kbit/s only); system codes `88 B4` always, `12 FC` only while the effective MC SYS_OP bit is set; `FF` in either byte matches any; time slots are the field's (JIS X 6319-4 §8.5.1) |
/// | Request Service | `02 IDm n node×n` | ✓ | key version `00 00` for area `0000`, services `0009`/`000B`; `FF FF` for any other node |
/// | Request Response | `04 IDm` | ✓ | mode `00` (the Lite-S has no mutual-authentication modes) |
/// | Read Without Encryption | `06 IDm 1 000B n blocks` | ✓ | 1–4 blocks, 2- and 3-byte block-list elements, MAC (`81`) and MAC_A (`91`) computed over the blocks before them |
/// | Write Without Encryption | `08 IDm 1 0009 n blocks data` | ✓ | one block, or one block and MAC_A (`91`) for a write with MAC |
/// | Request System Code | `0C IDm` | ✓ | `88 B4`, then `12 FC` while NDEF is enabled |
/// | Search Service Code, Request Service V2, Request Specification Version, Reset Mode, Authentication1/2 | | — | silence: the Lite-S has no file system beyond its two services and no mutual authentication of FeliCa Standard (a Lite-S stays silent for commands it lacks) |
///
/// Block map (Lite-S User's Manual §3.2): `00`–`0D` S_PAD0–13, `0E` REG, `80` RC, `81` MAC, `82` ID, `83` D_ID,
/// `84` SER_C, `85` SYS_C, `86` CKV, `87` CK, `88` MC, `90` WCNT, `91` MAC_A, `92` STATE, `A0` CRC_CHECK; any other
/// block is `A8`. Access rules are in `FeliCaLiteSTag+Blocks.swift`, MAC and external authentication in
/// `FeliCaLiteSTag+MAC.swift` (3DES from OpenNFCCrypto).
///
/// Status flags (Lite-S User's Manual §5.3; JIS X 6319-4 §8.6): SF1 `FF` for an error of the whole command, or the bit
/// of the failing block-list element (bit i mod 8 for element i, counted from 0); SF2 `A1` service count ≠ 1, `A2`
/// block count or packet length, `A3` service-list index ≠ 0, `A6` service not `000B` (read) / `0009` (write), `A7`
/// access mode ≠ 0, `A8` block absent, read-only or refused by its rule, `A9` write counter exhausted, `B0` MAC and
/// MAC_A in one read, `B1` authentication needed (read- or write-restricted block before external authentication),
/// `B2` MAC_A needed, no session key yet, or a MAC_A that does not verify; `FF 71` a successful write once the write
/// counter passed 0x001027 with the system blocks locked (rewrite-count warning). A frame with another IDm, an
/// unknown command or a frame too short for its own code gets no answer.
///
/// Memory Configuration changes take effect at the next power-up (the card works from a copy read at power-up).
///
/// Tearing: a block is written whole or not at all (the chip's EEPROM programs one 16-byte block per command); a torn
/// write commits the block when `tearAfter` ≥ 16, and the write counter with it. EEPROM time is modelled as
/// ``blockWriteTime`` per committed write.
///
/// Not simulated: the RF_PRM byte's effect on the RF front end, the CRC_CHECK self-test (it reads 00: no error), and
/// the communication-speed auto-detection (the card answers at 212 kbit/s).
public final class FeliCaLiteSTag: VirtualTag {
    /// IDm (block `82` bytes 0–7, D_ID bytes 0–7).
    public internal(set) var idm: [UInt8]
    /// PMm: IC code `F1` (byte 1) and the response-time parameters (D_ID bytes 8–15).
    public internal(set) var pmm: [UInt8]
    /// S_PAD0–S_PAD13 and REG, blocks `00`–`0E`, 16 bytes each.
    public var user: [[UInt8]]
    /// ID block bytes 8–15 (DFC and arbitrary data).
    public internal(set) var idData: [UInt8]
    /// SER_C (`84`), SYS_C (`85`), CKV (`86`), CK (`87`, as written: each 8-byte half byte-reversed), MC (`88`).
    public internal(set) var serC: [UInt8]
    public internal(set) var sysC: [UInt8]
    public internal(set) var ckv: [UInt8]
    public internal(set) var ck: [UInt8]
    public var mc: [UInt8]
    /// WCNT, the write counter (3 bytes, little-endian on the wire).
    public var writeCount: Int
    /// The MC the card works from: ``mc`` as it was at power-up.
    public internal(set) var effectiveMC: [UInt8]

    /// Volatile: the random challenge written to RC (as written), and the session key derived from it.
    var rc: [UInt8]?
    var sessionKey: [UInt8]?
    /// Volatile: STATE byte 0 bit 0, set by a STATE write with a valid MAC_A (external authentication).
    public internal(set) var externallyAuthenticated = false
    var lastProgramming = NFCDuration.zero

    /// The PMm of an RC-S966 as read from a card: IC code `F1`, Read `01`, Write `43`.
    public static let factoryPMm: [UInt8] = [0x00, 0xF1, 0x00, 0x00, 0x00, 0x01, 0x43, 0x00]
    /// The native system code `88 B4` and the NFC Forum NDEF system code `12 FC`.
    public static let nativeSystemCode: UInt16 = 0x88B4
    public static let ndefSystemCode: UInt16 = 0x12FC
    /// Write counter limits: `FFFFFF` while the system blocks are writable, `FFFE00` once locked (§3.2.11).
    static let counterLimitOpen = 0xFF_FFFF
    static let counterLimitLocked = 0xFF_FE00
    /// EEPROM programming of one block (modelled value, inside PMm byte 6's one-block budget of 6.04 ms).
    public static let blockWriteTime = NFCDuration.microseconds(2_200)

    /// A card from its memory (a dump, a tag file): `user` 15 blocks, the system blocks 16 bytes each, `idData` 8.
    public init(
        idm: [UInt8], pmm: [UInt8], user: [[UInt8]], idData: [UInt8], serC: [UInt8], sysC: [UInt8], ckv: [UInt8],
        ck: [UInt8], mc: [UInt8], writeCount: Int
    ) {
        self.idm = idm
        self.pmm = pmm
        self.user = user
        self.idData = idData
        self.serC = serC
        self.sysC = sysC
        self.ckv = ckv
        self.ck = ck
        self.mc = mc
        self.writeCount = writeCount
        self.effectiveMC = mc
    }

    public var chip: String { "felica-lite-s" }

    public var activation: VirtualActivation {
        VirtualActivation(.nfcF(NFCFActivation(idm: idm, pmm: pmm, systemCode: nativeCode)))
    }

    /// The native system code, from SYS_C bytes 0–1 (big-endian).
    var nativeCode: UInt16 { UInt16(sysC[0]) << 8 | UInt16(sysC[1]) }

    /// Whether the card answers Polling for `12 FC` (effective MC byte 3 bit 0, SYS_OP).
    public var ndefEnabled: Bool { effectiveMC[3] & 0x01 != 0 }

    /// The system codes the card answers, native first.
    var systemCodes: [UInt16] { ndefEnabled ? [nativeCode, Self.ndefSystemCode] : [nativeCode] }

    /// Re-activation: the session (RC, session key, external authentication) ends; memory and MC copy are kept.
    public func reset() {
        rc = nil
        sessionKey = nil
        externallyAuthenticated = false
    }

    /// Power-up: the card reads MC again (changes written since the last power-up take effect) and starts without
    /// a session.
    public func powerOn() {
        reset()
        effectiveMC = mc
    }

    public func processingTime(for frame: [UInt8]) -> NFCDuration { lastProgramming }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        lastProgramming = .zero
        guard let code = frame.first else { return .silence }
        if code == 0x00 { return polling(frame) }
        guard frame.count >= 9, Array(frame[1..<9]) == idm else { return .silence }
        switch code {
        case 0x02: return requestService(frame)
        case 0x04: return frame.count == 9 ? .data([0x05] + idm + [0x00]) : .silence
        case 0x06: return .data([0x07] + idm + read(frame))
        case 0x08: return write(frame, tearAfter: tearAfter).map { .data([0x09] + idm + $0) } ?? .silence
        case 0x0C:
            guard frame.count == 9 else { return .silence }
            let codes = systemCodes.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
            return .data([0x0D] + idm + [UInt8(systemCodes.count)] + codes)
        default: return .silence
        }
    }

    /// Polling (JIS X 6319-4 §8.5.1): `00 SC1 SC2 RC TSN`.
    func polling(_ f: [UInt8]) -> VirtualAnswer {
        guard f.count == 5 else { return .silence }
        let hi = f[1]
        let lo = f[2]
        guard
            let matched = systemCodes.first(where: { sc in
                (hi == 0xFF || hi == UInt8(sc >> 8)) && (lo == 0xFF || lo == UInt8(sc & 0xFF))
            })
        else { return .silence }
        var answer = [0x01] + idm + pmm
        switch f[3] {
        case 0x01: answer += [UInt8(matched >> 8), UInt8(matched & 0xFF)]
        case 0x02: answer += [0x00, 0x01]
        default: break
        }
        return .data(answer)
    }

    /// Request Service: `02 IDm n node(2, little-endian)×n`, n from 1 to 32.
    func requestService(_ f: [UInt8]) -> VirtualAnswer {
        guard f.count >= 10 else { return .silence }
        let n = Int(f[9])
        guard (1...32).contains(n), f.count == 10 + 2 * n else { return .silence }
        var versions: [UInt8] = []
        for i in 0..<n {
            let node = UInt16(f[10 + 2 * i]) | UInt16(f[11 + 2 * i]) << 8
            versions += [0x0000, 0x0009, 0x000B].contains(node) ? [0x00, 0x00] : [0xFF, 0xFF]
        }
        return .data([0x03] + idm + [UInt8(n)] + versions)
    }
}

/// One block-list element of Read/Write Without Encryption (JIS X 6319-4 §8.6.2; Lite-S User's Manual §5.2.2):
/// D0 bit 7 set for the 2-byte form (block number in one byte), clear for the 3-byte form (block number in two
/// bytes, little-endian); bits 6–4 the access mode, bits 3–0 the index into the service code list.
struct FeliCaBlockElement: Sendable, Hashable {
    var block: Int
    var accessMode: UInt8
    var serviceIndex: Int

    /// Parses `count` elements from `bytes` at `offset`; nil when the list runs past the end. On success `offset` is
    /// just past the last element.
    static func parse(_ bytes: [UInt8], count: Int, offset: inout Int) -> [FeliCaBlockElement]? {
        var out: [FeliCaBlockElement] = []
        for _ in 0..<count {
            guard offset < bytes.count else { return nil }
            let d0 = bytes[offset]
            let mode = (d0 >> 4) & 0x07
            let index = Int(d0 & 0x0F)
            if d0 & 0x80 != 0 {
                guard offset + 2 <= bytes.count else { return nil }
                out.append(FeliCaBlockElement(block: Int(bytes[offset + 1]), accessMode: mode, serviceIndex: index))
                offset += 2
            } else {
                guard offset + 3 <= bytes.count else { return nil }
                let block = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8
                out.append(FeliCaBlockElement(block: block, accessMode: mode, serviceIndex: index))
                offset += 3
            }
        }
        return out
    }

    /// SF1 for an error at element `i` (counted from 0): its bit, i mod 8.
    static func flag(_ i: Int) -> UInt8 { 1 << UInt8(i % 8) }
}
