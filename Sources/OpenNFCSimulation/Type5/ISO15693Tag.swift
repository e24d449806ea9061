internal import OpenNFCBytes
public import OpenNFCRF

/// A virtual ISO/IEC 15693 vicinity tag (NFC Forum Type 5 platform), written from the card side of ISO/IEC 15693-3
/// and each chip's datasheet (``ISO15693ChipProfile``).
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | States (§7.3) | yes | power-off, ready, quiet, selected; quiet tags ignore non-addressed requests; Select-flag requests need selected |
/// | Addressing (§7.4) | yes | non-addressed, addressed (UID LSB first after the command), select mode; another UID: no answer |
/// | Inventory (§10.3.1) | yes | 1 and 16 slots (the field's air interface), AFI, mask; quiet tags stay silent |
/// | Mandatory and optional commands | yes | `02` `20`–`2C`; `24` where the chip has it |
/// | Extended commands (`30`–`34`, `3B`, `3C`) | chips with ``ISO15693ChipProfile/hasExtendedCommands`` | 2-byte block numbers |
/// | Option flag | yes | reads add the block security status; chips that need it for writes stay silent without it |
/// | Error codes (§10.2.4) | yes | `01` not supported, `02` not recognised, `10` block not available, `11` already locked, `12` locked |
/// | Tearing | yes | a block is programmed whole or not at all; Write Multiple commits whole blocks in order |
/// | Custom commands (`A0`–`DF`) | per chip | NXP ICODE set (`ISO15693Tag+NXP.swift`), ST25DV set (`ISO15693Tag+ST25DV.swift`); the manufacturer code after the command must be the chip's, else `01`; the Tag-it has none (`01`) |
/// | Passwords and protection | NXP, ST | NXP pages (protection pointer and condition), privacy, destroy, EAS/AFI password; ST areas (RFAxSS) by 64-bit password; state in tag files |
///
/// Unknown commands answer error `01`, and a request too short for its command answers `02`: ISO/IEC 15693-3 lets a
/// tag stay silent instead; these chips' datasheets list the error responses.
public final class ISO15693Tag: VirtualTag {
    /// The ISO/IEC 15693-3 §7.3 states a powered tag is in.
    public enum State: String, Sendable, Hashable {
        case ready, quiet, selected
    }

    public let profile: ISO15693ChipProfile
    /// The UID MSB first as printed (`E0`, manufacturer, …); it travels LSB first.
    public let uid: [UInt8]
    /// All blocks, `blockCount × blockSize` bytes.
    public var memory: [UInt8]
    /// Blocks locked by Lock Block (permanent).
    public var lockedBlocks: Set<Int>
    public var dsfid: UInt8
    public var afi: UInt8
    public var dsfidLocked: Bool
    public var afiLocked: Bool
    public private(set) var state: State = .ready
    /// NXP ICODE custom state kept in EEPROM (passwords, privacy, EAS, page protection, signature).
    public var nxp: NXPState
    /// ST25DV configuration registers and passwords kept in EEPROM.
    public var st25: ST25DVState
    /// What a power-off clears: presented passwords, the last random number, open security sessions.
    var session = CustomSession()

    /// A tag with this memory (zero-filled when nil).
    public init(profile: ISO15693ChipProfile, uid: [UInt8], memory: [UInt8]? = nil) throws(ISO15693TagError) {
        guard uid.count == 8, Array(uid.prefix(2)) == Array(profile.uidPrefix.prefix(2)) else {
            throw ISO15693TagError(
                "\(profile.displayName) UIDs are 8 bytes starting \(Hex.encode(Array(profile.uidPrefix.prefix(2)))), got "
                    + Hex.encode(uid))
        }
        let size = profile.blockCount * profile.blockSize
        if let memory, memory.count != size {
            throw ISO15693TagError("\(profile.displayName) has \(size) bytes of memory, got \(memory.count)")
        }
        self.profile = profile
        self.uid = uid
        self.memory = memory ?? [UInt8](repeating: 0, count: size)
        self.lockedBlocks = []
        self.dsfid = 0
        self.afi = 0
        self.dsfidLocked = false
        self.afiLocked = false
        self.nxp = NXPState(profile: profile, uid: uid)
        self.st25 = ST25DVState(profile: profile)
        self.session = CustomSession(uid: uid)
    }

    public var chip: String { profile.name }

    public var activation: VirtualActivation {
        VirtualActivation(.nfcV(NFCVActivation(uid: uid, dsfid: dsfid, afi: afi)))
    }

    /// Activation sends no frame to an ISO 15693 tag: nothing volatile is cleared (a quiet tag stays quiet).
    public func reset() {}

    /// Power-up: the tag is ready (§7.3); presented passwords, random numbers and security sessions are gone.
    public func powerOn() {
        state = .ready
        session.powerOn()
        st25.powerOn()
    }

    public func processingTime(for frame: [UInt8]) -> NFCDuration {
        guard frame.count >= 2 else { return .zero }
        let blocks: Int
        switch frame[1] {
        case 0x21, 0x22, 0x27, 0x28, 0x29, 0x2A, 0x31, 0x32: blocks = 1
        case 0x24: blocks = writeMultipleCount(frame, extended: false) ?? 0
        case 0x34: blocks = writeMultipleCount(frame, extended: true) ?? 0
        default: blocks = 0
        }
        return NFCDuration(nanoseconds: UInt64(blocks) * profile.writeTimeMicroseconds * 1_000)
    }

    private func writeMultipleCount(_ frame: [UInt8], extended: Bool) -> Int? {
        let at = 2 + (frame[0] & 0x20 != 0 ? 8 : 0) + (extended ? 2 : 1)
        guard frame.count > at + (extended ? 1 : 0) else { return nil }
        return extended ? (Int(frame[at]) | Int(frame[at + 1]) << 8) + 1 : Int(frame[at]) + 1
    }

    public func receive(_ frame: [UInt8], tearAfter: Int?) -> VirtualAnswer {
        guard frame.count >= 2, !nxp.destroyed, !session.muted else { return .silence }
        let flags = frame[0]
        let command = frame[1]
        if flags & 0x04 != 0 {
            guard !nxp.privacy else { return .silence }  // SL2S2602 §8.5.3: privacy mode hides the tag from inventory
            if command == 0x01 { return inventory(frame) }
            if command == 0xA0 || command == 0xA1 { return inventoryRead(frame) }
            return .silence
        }
        let addressed = flags & 0x20 != 0
        let selectMode = flags & 0x10 != 0
        var i = 2
        let custom = command >= 0xA0 && command <= 0xDF
        if custom { i += 1 }  // IC manufacturer code of custom commands
        if addressed {
            guard frame.count >= i + 8 else { return .silence }
            guard Array(frame[i..<(i + 8)]) == uid.reversed() else {
                // §10.4.6: a Select addressed to another tag sends a selected tag back to ready.
                if command == 0x25 && state == .selected { state = .ready }
                return .silence
            }
            i += 8
        } else if selectMode {
            guard state == .selected else { return .silence }
        } else if state == .quiet {
            return .silence
        }
        // SL2S2602 §8.5.3: in privacy mode only GET RANDOM NUMBER and SET PASSWORD (of the privacy password) answer.
        if nxp.privacy && !(custom && (command == 0xB2 || command == 0xB3)) { return .silence }
        if addressed && selectMode { return error(0x02) }
        guard frame.count >= i else { return error(0x02) }  // a custom command without its manufacturer code
        let p = Array(frame[i...])
        let option = flags & 0x40 != 0
        if custom {
            guard let mine = profile.custom.manufacturer, frame[2] == mine else { return error(0x01) }
            return profile.custom == .st25dv
                ? st25Command(command, p, option: option, tearAfter: tearAfter)
                : nxpCommand(command, p, option: option, addressed: addressed || selectMode)
        }
        return execute(command, p, option: option, addressed: addressed, tearAfter: tearAfter)
    }

    private func execute(_ command: UInt8, _ p: [UInt8], option: Bool, addressed: Bool, tearAfter: Int?)
        -> VirtualAnswer
    {
        let ext = profile.hasExtendedCommands
        switch command {
        case 0x02:
            guard addressed else { return .silence }
            state = .quiet
            return .silence
        case 0x20: return readBlocks(p, extended: false, multiple: false, option: option)
        case 0x21: return writeBlocks(p, extended: false, multiple: false, option: option, tearAfter: tearAfter)
        case 0x22: return lockBlock(p, extended: false, option: option)
        case 0x23: return readBlocks(p, extended: false, multiple: true, option: option)
        case 0x24 where profile.hasWriteMultiple:
            return writeBlocks(p, extended: false, multiple: true, option: option, tearAfter: tearAfter)
        case 0x25:
            guard addressed else { return error(0x02) }
            state = .selected
            return .data([0x00])
        case 0x26:
            state = .ready
            return .data([0x00])
        case 0x27, 0x29:
            guard p.count == 1 else { return error(0x02) }
            if profile.writesNeedOption && !option { return .silence }
            if command == 0x27, let e = afiDenied() { return error(e) }
            if command == 0x27 {
                guard !afiLocked else { return error(0x12) }
                if tearAfter == nil || tearAfter! >= 1 { afi = p[0] }
            } else {
                guard !dsfidLocked else { return error(0x12) }
                if tearAfter == nil || tearAfter! >= 1 { dsfid = p[0] }
            }
            return .data([0x00])
        case 0x28, 0x2A:
            guard p.isEmpty else { return error(0x02) }
            if profile.writesNeedOption && !option { return .silence }
            if command == 0x28, let e = afiDenied() { return error(e) }
            if command == 0x28 {
                guard !afiLocked else { return error(0x11) }
                afiLocked = true
            } else {
                guard !dsfidLocked else { return error(0x11) }
                dsfidLocked = true
            }
            return .data([0x00])
        case 0x2B:
            guard p.isEmpty else { return error(0x02) }
            return systemInformation(extendedRequest: nil)
        case 0x2C: return securityStatus(p, extended: false)
        case 0x30 where ext: return readBlocks(p, extended: true, multiple: false, option: option)
        case 0x31 where ext:
            return writeBlocks(p, extended: true, multiple: false, option: option, tearAfter: tearAfter)
        case 0x32 where ext: return lockBlock(p, extended: true, option: option)
        case 0x33 where ext: return readBlocks(p, extended: true, multiple: true, option: option)
        case 0x34 where ext:
            return writeBlocks(p, extended: true, multiple: true, option: option, tearAfter: tearAfter)
        case 0x3B where ext:
            guard p.count == 1 else { return error(0x02) }
            return systemInformation(extendedRequest: p[0])
        case 0x3C where ext: return securityStatus(p, extended: true)
        default: return error(0x01)
        }
    }

    // MARK: Commands

    func error(_ code: UInt8) -> VirtualAnswer { .data([0x01, code]) }

    /// Block number (1 or 2 bytes, LSB first) and, for the multiple forms, block count − 1 (1 or 2 bytes).
    func range(_ p: [UInt8], extended: Bool, multiple: Bool) -> (
        first: Int, count: Int, rest: ArraySlice<UInt8>
    )? {
        let n = extended ? 2 : 1
        let need = multiple ? 2 * n : n
        guard p.count >= need else { return nil }
        let first = extended ? Int(p[0]) | Int(p[1]) << 8 : Int(p[0])
        var count = 1
        if multiple { count = (extended ? Int(p[n]) | Int(p[n + 1]) << 8 : Int(p[n])) + 1 }
        return (first, count, p[need...])
    }

    func readBlocks(_ p: [UInt8], extended: Bool, multiple: Bool, option: Bool) -> VirtualAnswer {
        guard let r = range(p, extended: extended, multiple: multiple), r.rest.isEmpty else { return error(0x02) }
        guard r.first + r.count <= profile.blockCount, !multiple || r.count <= profile.maxReadMultiple else {
            return error(0x10)
        }
        for b in r.first..<(r.first + r.count) {
            if let e = readDenied(b) { return error(e) }
        }
        var out: [UInt8] = [0x00]
        for b in r.first..<(r.first + r.count) {
            if option { out.append(lockedBlocks.contains(b) ? 0x01 : 0x00) }
            out += memory[(b * profile.blockSize)..<((b + 1) * profile.blockSize)]
        }
        return .data(out)
    }

    private func writeBlocks(_ p: [UInt8], extended: Bool, multiple: Bool, option: Bool, tearAfter: Int?)
        -> VirtualAnswer
    {
        if profile.writesNeedOption && !option { return .silence }
        guard let r = range(p, extended: extended, multiple: multiple) else { return error(0x02) }
        guard r.rest.count == r.count * profile.blockSize else { return error(0x02) }
        guard r.first + r.count <= profile.blockCount else { return error(0x10) }
        for b in r.first..<(r.first + r.count) where lockedBlocks.contains(b) { return error(0x12) }
        for b in r.first..<(r.first + r.count) {
            if let e = writeDenied(b) { return error(e) }
        }
        if let answer = counterWrite(r.first, r.count, Array(r.rest), tearAfter: tearAfter) { return answer }
        // A torn write programs whole blocks only, in order (each block is one EEPROM programming cycle).
        let committed = tearAfter.map { min(r.count, $0 / profile.blockSize) } ?? r.count
        let data = Array(r.rest)
        for k in 0..<committed {
            let b = r.first + k
            memory.replaceSubrange(
                (b * profile.blockSize)..<((b + 1) * profile.blockSize),
                with: data[(k * profile.blockSize)..<((k + 1) * profile.blockSize)])
        }
        return .data([0x00])
    }

    private func lockBlock(_ p: [UInt8], extended: Bool, option: Bool) -> VirtualAnswer {
        if profile.writesNeedOption && !option { return .silence }
        guard let r = range(p, extended: extended, multiple: false), r.rest.isEmpty else { return error(0x02) }
        guard r.first < profile.blockCount else { return error(0x10) }
        guard !lockedBlocks.contains(r.first) else { return error(0x11) }
        if let e = writeDenied(r.first) ?? lockDenied(r.first) { return error(e) }
        lockedBlocks.insert(r.first)
        return .data([0x00])
    }

    private func securityStatus(_ p: [UInt8], extended: Bool) -> VirtualAnswer {
        guard let r = range(p, extended: extended, multiple: true), r.rest.isEmpty else { return error(0x02) }
        guard r.first + r.count <= profile.blockCount else { return error(0x10) }
        return .data([0x00] + (r.first..<(r.first + r.count)).map { lockedBlocks.contains($0) ? 0x01 : 0x00 })
    }

    /// Get System Information (§10.4.12) or, with a request byte, Extended Get System Information: info flags,
    /// UID LSB first, DSFID, AFI, memory size (blocks − 1, block size − 1; two bytes of blocks in the extended
    /// form) and the IC reference. A chip of more than 256 blocks leaves the memory size out of the short form.
    private func systemInformation(extendedRequest: UInt8?) -> VirtualAnswer {
        let wants = extendedRequest ?? 0x0F
        var info: UInt8 = 0
        var body: [UInt8] = []
        if wants & 0x01 != 0 {
            info |= 0x01
            body.append(dsfid)
        }
        if wants & 0x02 != 0 {
            info |= 0x02
            body.append(afi)
        }
        if wants & 0x04 != 0 {
            let blocks = profile.blockCount - 1
            if extendedRequest != nil {
                info |= 0x04
                body += [UInt8(blocks & 0xFF), UInt8(blocks >> 8), UInt8(profile.blockSize - 1)]
            } else if blocks <= 0xFF {
                info |= 0x04
                body += [UInt8(blocks), UInt8(profile.blockSize - 1)]
            }
        }
        if wants & 0x08 != 0, let ic = profile.icReference {
            info |= 0x08
            body.append(ic)
        }
        return .data([0x00, info] + uid.reversed() + body)
    }

    /// Inventory (§10.3.1); with `read`, the NXP INVENTORY READ (SL2S2002 §9.3.1): after the mask, the first block
    /// and the block count − 1, answered with those blocks instead of the DSFID and UID.
    func inventory(_ frame: [UInt8], read: Bool = false) -> VirtualAnswer {
        guard state != .quiet else { return .silence }
        let flags = frame[0]
        var i = read ? 3 : 2  // INVENTORY READ carries the IC manufacturer code after the command
        if flags & 0x10 != 0 {
            guard frame.count > i else { return .silence }
            // §10.3.1 and Table 6: AFI 00 in the request selects every tag; otherwise family and sub-family match.
            let requested = frame[i]
            let familyOK = requested >> 4 == 0 || requested >> 4 == afi >> 4
            let subOK = requested & 0x0F == 0 || requested & 0x0F == afi & 0x0F
            guard familyOK && subOK else { return .silence }
            i += 1
        }
        guard frame.count > i else { return .silence }
        let maskLength = Int(frame[i])
        let maskEnd = i + 1 + (maskLength + 7) / 8
        guard maskLength <= 64, frame.count == maskEnd + (read ? 2 : 0) else { return .silence }
        let maskBytes = Array(frame[(i + 1)..<maskEnd])
        let lsbFirst = Array(uid.reversed())
        for bit in 0..<maskLength {
            let mine = lsbFirst[bit / 8] >> UInt8(bit % 8) & 1
            let theirs = maskBytes[bit / 8] >> UInt8(bit % 8) & 1
            guard mine == theirs else { return .silence }
        }
        guard read else { return .data([0x00, dsfid] + lsbFirst) }
        return inventoryReadAnswer(
            first: Int(frame[maskEnd]), count: Int(frame[maskEnd + 1]) + 1, maskLength: maskLength,
            option: flags & 0x40 != 0)
    }
}

/// Why an ``ISO15693Tag`` could not be built.
public struct ISO15693TagError: Error, Hashable, Sendable, CustomStringConvertible {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}
