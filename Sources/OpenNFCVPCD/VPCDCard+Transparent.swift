internal import OpenNFCBytes
internal import OpenNFCSimulation

/// The PC/SC 2.02 transparent session (PC/SC Part 3 v2.02: Manage Session, Transparent Exchange, Switch Protocol) of
/// the emulated reader, for ISO 15693 tags (`VPCDCard+ISO15693.swift`) and level-3 NFC-A tags (Type 2, Ultralight C).
///
/// | Command (CLA `FF`) | Answer |
/// |---|---|
/// | `C2 00 00 Lc DOs` manage session | `81 00` start, `82 00` end, `83 00` RF off, `84 00` RF on, `5F 46` timer (accepted) → `C0 03 00 90 00 … 90 00` |
/// | `C2 00 01 Lc DOs` transparent exchange | `95 len request` (no CRC) → `C0 03 00 90 00 92 01 00 96 02 00 00 97 len answer`; an NFC-A ACK/NAK `92 01 04 … 97 01 0A`/`0n`; a silent tag `C0 03 ii 64 01`; `90 02 00 00` flags and `5F 46` timer accepted |
/// | `C2 00 02 Lc 8F 02 PP LL` switch protocol | ISO 15693 (`02`) at layer 2 or 3, or ISO/IEC 14443 Type A (`00`) layer 3 for an NFC-A tag: `C0 03 00 90 00`; any other protocol `C0 03 00 6A 80` (only this tag is in the field) |
/// | Data object not handled (`80` version, `FF 6D`/`FF 6E` parameters, bit framing `91`–`94`) | `C0 03 ii 6A 81`, ii = the object's index from 0 |
///
/// Requests outside a session answer `C0 03 00 6A 81`.
extension VPCDCard {
    /// A tag that takes raw NFC-A frames at layer 3: neither ISO-DEP, Type 1 (its frames need the PN532's framing)
    /// nor MIFARE Classic (Crypto1 runs in the reader).
    var isLevel3NFCA: Bool {
        tag.activation.technology == .nfcA && !isISODEP && tag.activation.nfcA?.type1 == nil
            && (tag as? any MifareClassicCompatible)?.classicBlockCount == nil
    }

    // MARK: Transparent session (FF C2)

    func transparent(p2: UInt8, apdu: [UInt8], tearAfter: Int?) -> [UInt8]? {
        guard apdu.count >= 5, apdu.count == 5 + Int(apdu[4]) || apdu.count == 6 + Int(apdu[4]) else {
            return [0x67, 0x00]
        }
        let objects: [DataObject]
        do { objects = try DataObject.decodeAll(Array(apdu[5..<(5 + Int(apdu[4]))])) } catch { return [0x67, 0x00] }
        var out: [UInt8] = []
        func status(_ index: Int, _ sw1: UInt8, _ sw2: UInt8) -> [UInt8] {
            DataObject(tag: 0xC0, value: [UInt8(index), sw1, sw2]).bytes + out + [0x90, 0x00]
        }
        switch p2 {
        case 0x00:
            for (i, o) in objects.enumerated() {
                switch (o.tag, o.value.count) {
                case (0x81, 0): transparentSession = true
                case (0x82, 0): transparentSession = false
                case (0x83, 0): isPowered = false
                case (0x84, 0):
                    isPowered = true
                    tag.powerOn()
                case (0x5F46, 4): break
                default: return status(i, 0x6A, 0x81)
                }
            }
            return status(0, 0x90, 0x00)
        case 0x01:
            guard transparentSession else { return status(0, 0x6A, 0x81) }
            for (i, o) in objects.enumerated() {
                switch o.tag {
                case 0x5F46 where o.value.count == 4: break
                case 0x90 where o.value == [0x00, 0x00]: break
                case 0x90: return status(i, 0x6A, 0x80)
                case 0x95:
                    guard isPowered, !o.value.isEmpty else { return status(i, 0x64, 0x01) }
                    let answer = tag.receive(o.value, tearAfter: tearAfter)
                    if tearAfter != nil { return nil }
                    // A 4-bit ACK/NAK (NFC-A) travels as one byte with 4 valid bits (`92 01 04`).
                    let bits: UInt8
                    let reply: [UInt8]
                    switch answer {
                    case .data(let d) where !d.isEmpty: (bits, reply) = (0x00, d)
                    case .ack: (bits, reply) = (0x04, [0x0A])
                    case .nak(let n): (bits, reply) = (0x04, [n & 0x0F])
                    case .data, .silence: return status(i, 0x64, 0x01)
                    }
                    out += [0x92, 0x01, bits, 0x96, 0x02, 0x00, 0x00] + DataObject(tag: 0x97, value: reply).bytes
                default: return status(i, 0x6A, 0x81)
                }
            }
            return status(0, 0x90, 0x00)
        case 0x02:
            guard transparentSession else { return status(0, 0x6A, 0x81) }
            for (i, o) in objects.enumerated() {
                guard o.tag == 0x8F, o.value.count == 2 else { return status(i, 0x6A, 0x81) }
                // Only this tag is in the field: ISO 15693 (02) at layer 2 or 3, or ISO/IEC 14443 Type A (00) at
                // layer 3 for a level-3 NFC-A tag.
                let accepted =
                    isISO15693
                    ? o.value[0] == 0x02 && (o.value[1] == 0x02 || o.value[1] == 0x03)
                    : o.value == [0x00, 0x03]
                guard accepted else { return status(i, 0x6A, 0x80) }
            }
            return status(0, 0x90, 0x00)
        default:
            return [0x6A, 0x81]
        }
    }
}
