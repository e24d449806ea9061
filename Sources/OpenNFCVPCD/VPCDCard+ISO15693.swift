internal import OpenNFCBytes
internal import OpenNFCSimulation

/// What the emulated reader answers for an ISO/IEC 15693 tag (NFC Forum Type 5): the reader side of PC/SC Part 3
/// (storage-card pseudo-APDUs, by block) and of the PC/SC 2.02 transparent session (Part 3 v2.02: Manage Session, Transparent
/// Exchange, Switch Protocol).
///
/// | Command (CLA `FF`) | Answer |
/// |---|---|
/// | ATR | `3B 8F 80 01 80 4F 0C A0 00 00 03 06 0B NN NN 00 00 00 00 TCK`: standard `0B` (ISO 15693 part 3), card name `00 14` ICODE SLI (UID manufacturer `04`), `00 12` Tag-it (`07`), `00 00` otherwise |
/// | `CA 00 00 Le` | the UID LSB first, as on the air (`… 04 E0`) + `90 00` |
/// | `B0 BH BL Le` READ BINARY | Read Single Block from block BH BL (the extended command past block 255); Le `00` = one block, else Le bytes of consecutive blocks + `90 00`; `6A 82` past the memory, `63 00` when the tag refuses |
/// | `D6 BH BL Lc data` UPDATE BINARY | one Write Single Block per block (the Option flag set for TI tags, UID manufacturer `07`, whose writes need it) → `90 00`; `67 00` when Lc is not a multiple of the block size; `6A 82` past the memory; `63 00` refused |
/// | `C2 00 P2 Lc DOs` | the PC/SC 2.02 transparent session: `VPCDCard+Transparent.swift` |
///
/// The emulated reader addresses every request it makes itself
/// (flags `22`: addressed, high data rate), as the reader procedures do.
extension VPCDCard {
    var isISO15693: Bool { tag.activation.technology == .nfcV }

    private var uidLSBFirst: [UInt8] { Array(tag.activation.uid.reversed()) }

    /// The answer for the ISO 15693 pseudo-APDUs, or nil for the commands every tag shares.
    func respondISO15693(_ apdu: [UInt8], tearAfter: Int?) -> [UInt8]?? {
        let (ins, p1, p2) = (apdu[1], apdu[2], apdu[3])
        switch ins {
        case 0xCA where p1 == 0x00: return .some(getData(apdu, tearAfter != nil) { self.uidLSBFirst })
        case 0xCA: return .some([0x6A, 0x81])
        case 0xB0:
            let r = readBinary15693(block: Int(p1) << 8 | Int(p2), apdu: apdu)
            return .some(tearAfter == nil ? r : nil)
        case 0xD6: return .some(updateBinary15693(block: Int(p1) << 8 | Int(p2), apdu: apdu, tearAfter: tearAfter))
        case 0xC2 where p1 == 0x00: return .some(transparent(p2: p2, apdu: apdu, tearAfter: tearAfter))
        default: return nil
        }
    }

    // MARK: Part 3 by block

    private func request(_ command: UInt8, block: Int, _ data: [UInt8] = [], option: Bool = false) -> [UInt8] {
        let extended = block > 0xFF
        let flags: UInt8 = 0x22 | (option ? 0x40 : 0x00)
        let number: [UInt8] = extended ? [UInt8(block & 0xFF), UInt8(block >> 8)] : [UInt8(block)]
        return [flags, extended ? command | 0x10 : command] + uidLSBFirst + number + data
    }

    /// One block, or nil with the status word of the refusal.
    private func readBlock(_ n: Int) -> Result<[UInt8], StatusWord> {
        switch tag.receive(request(0x20, block: n), tearAfter: nil) {
        case .data(let d) where d.first == 0x00 && d.count > 1: return .success(Array(d.dropFirst()))
        case .data(let d) where d.count == 2 && d[0] & 0x01 != 0 && d[1] == 0x10:
            return .failure(StatusWord(0x6A, 0x82))
        default: return .failure(StatusWord(0x63, 0x00))
        }
    }

    struct StatusWord: Error {
        var bytes: [UInt8]
        init(_ sw1: UInt8, _ sw2: UInt8) { bytes = [sw1, sw2] }
    }

    private func blockSize() -> Result<Int, StatusWord> {
        if let n = iso15693BlockSize { return .success(n) }
        switch readBlock(0) {
        case .success(let d):
            iso15693BlockSize = d.count
            return .success(d.count)
        case .failure(let sw): return .failure(sw)
        }
    }

    private func readBinary15693(block: Int, apdu: [UInt8]) -> [UInt8] {
        guard apdu.count == 5 else { return [0x67, 0x00] }
        let le = Int(apdu[4])
        var out: [UInt8] = []
        var b = block
        repeat {
            switch readBlock(b) {
            case .success(let d):
                if iso15693BlockSize == nil { iso15693BlockSize = d.count }
                out += d
            case .failure(let sw): return sw.bytes
            }
            b += 1
        } while out.count < le
        return Array(out.prefix(le == 0 ? out.count : le)) + [0x90, 0x00]
    }

    private func updateBinary15693(block: Int, apdu: [UInt8], tearAfter: Int?) -> [UInt8]? {
        guard apdu.count >= 6, apdu.count == 5 + Int(apdu[4]) else { return [0x67, 0x00] }
        let size: Int
        switch blockSize() {
        case .success(let n): size = n
        case .failure(let sw): return sw.bytes
        }
        let data = Array(apdu[5...])
        guard data.count % size == 0 else { return [0x67, 0x00] }
        // Tag-it HF-I writes need the Option flag (TI RI-I02-112A "Write Single Block"); a reader sets it by UID.
        let option = tag.activation.uid.count == 8 && tag.activation.uid[1] == 0x07
        var budget = tearAfter
        for k in 0..<(data.count / size) {
            let frame = request(0x21, block: block + k, Array(data[(k * size)..<((k + 1) * size)]), option: option)
            if let left = budget, left < size {
                _ = tag.receive(frame, tearAfter: left)
                return nil
            }
            let answer = tag.receive(frame, tearAfter: nil)
            budget = budget.map { $0 - size }
            guard case .data(let d) = answer, d.first == 0x00 else {
                if case .data(let d) = answer, d.count == 2, d[1] == 0x10 { return [0x6A, 0x82] }
                return [0x63, 0x00]
            }
        }
        return budget == nil ? [0x90, 0x00] : nil
    }
}
