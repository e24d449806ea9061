internal import OpenNFCBytes
internal import OpenNFCCrypto
internal import OpenNFCRF

/// Access conditions and memory operations (MF1S50yyX §8.6–§8.7, Tables 7 and 8).
extension MifareClassicTag {
    // MARK: Access conditions

    func conditions(sector: Int) -> [UInt8]? {
        let t = MifareClassicModel.trailerBlock(ofSector: sector) * 16
        return MifareClassicAccessRules.conditions(memory[t..<t + 16])
    }

    /// The rules of a data block the session may address, or nil (another sector, a trailer, a blocked sector,
    /// an unusable key).
    func dataRules(_ block: Int, session s: Session) -> (
        read: MifareClassicAccessRules.Keys, write: MifareClassicAccessRules.Keys,
        increment: MifareClassicAccessRules.Keys, decrement: MifareClassicAccessRules.Keys
    )? {
        guard block < model.blockCount, s.keyUsable, MifareClassicModel.sector(ofBlock: block) == s.sector,
            !MifareClassicModel.isTrailer(block), let c = conditions(sector: s.sector)
        else { return nil }
        return MifareClassicAccessRules.data[Int(c[MifareClassicModel.accessGroup(ofBlock: block)])]
    }

    func trailerRules(_ block: Int, session s: Session) -> (
        keyAWrite: MifareClassicAccessRules.Keys, accessRead: MifareClassicAccessRules.Keys,
        accessWrite: MifareClassicAccessRules.Keys, keyBRead: MifareClassicAccessRules.Keys,
        keyBWrite: MifareClassicAccessRules.Keys
    )? {
        guard block < model.blockCount, s.keyUsable, MifareClassicModel.sector(ofBlock: block) == s.sector,
            MifareClassicModel.isTrailer(block), let c = conditions(sector: s.sector)
        else { return nil }
        return MifareClassicAccessRules.trailer[Int(c[3])]
    }

    func read(_ block: Int, session s: Session) -> [UInt8]? {
        if let r = trailerRules(block, session: s) {
            var b = self.block(block)
            for i in 0..<6 { b[i] = 0 }
            if !r.accessRead.grants(s.keyType) { for i in 6..<10 { b[i] = 0 } }
            if !r.keyBRead.grants(s.keyType) { for i in 10..<16 { b[i] = 0 } }
            return b
        }
        guard let r = dataRules(block, session: s), r.read.grants(s.keyType) else { return nil }
        return self.block(block)
    }

    func mayWrite(_ block: Int, session s: Session) -> Bool {
        if block == 0 && magic != .gen2 { return false }
        if let r = trailerRules(block, session: s) {
            return r.keyAWrite.grants(s.keyType) || r.accessWrite.grants(s.keyType) || r.keyBWrite.grants(s.keyType)
        }
        return dataRules(block, session: s)?.write.grants(s.keyType) ?? false
    }

    func write(_ block: Int, _ bytes: [UInt8], session s: Session, tearAfter: Int?) -> NFCAAirAnswer {
        guard bytes.count == 16 else { return nak(4) }
        var new = bytes
        if let r = trailerRules(block, session: s) {
            let old = self.block(block)
            if !r.keyAWrite.grants(s.keyType) { new.replaceSubrange(0..<6, with: old[0..<6]) }
            if !r.accessWrite.grants(s.keyType) { new.replaceSubrange(6..<10, with: old[6..<10]) }
            if !r.keyBWrite.grants(s.keyType) { new.replaceSubrange(10..<16, with: old[10..<16]) }
            if tearAfter.map({ $0 >= 16 }) ?? true {
                if r.keyAWrite.grants(s.keyType) { unknownKeys.remove(KeySlot(sector: s.sector, isKeyB: false)) }
                if r.keyBWrite.grants(s.keyType) { unknownKeys.remove(KeySlot(sector: s.sector, isKeyB: true)) }
            }
        }
        // The block is programmed once the whole frame and its CRC arrived: a tear before that leaves it as it was.
        if tearAfter.map({ $0 >= 16 }) ?? true { memory.replaceSubrange(block * 16..<block * 16 + 16, with: new) }
        return ack()
    }
}
