/// Value blocks (MF1S50yyX §8.6.2.1) and the value operations (§10.4–§10.6).
extension MifareClassicTag {
    // MARK: Value blocks

    /// The value and address byte of a block in value-block format, or nil.
    func valueBlock(_ block: Int) -> (Int32, UInt8)? {
        let b = self.block(block)
        let v = Array(b[0..<4])
        guard Array(b[8..<12]) == v, Array(b[4..<8]) == v.map({ ~$0 }), b[12] == b[14], b[13] == b[15],
            b[13] == ~b[12]
        else { return nil }
        return (Int32(bitPattern: UInt32(v[0]) | UInt32(v[1]) << 8 | UInt32(v[2]) << 16 | UInt32(v[3]) << 24), b[12])
    }

    /// A value block: value, ¬value, value (LE), addr, ¬addr, addr, ¬addr (MF1S50yyX §8.6.2.1).
    package static func valueBlock(_ value: Int32, address: UInt8) -> [UInt8] {
        let u = UInt32(bitPattern: value)
        let v = (0..<4).map { UInt8(truncatingIfNeeded: u >> UInt32(8 * $0)) }
        return v + v.map { ~$0 } + v + [address, ~address, address, ~address]
    }

    /// The second part of DECREMENT, INCREMENT, RESTORE: the operand (4 bytes LE); no answer on success.
    func valueOperand(_ command: UInt8, _ block: Int, _ operand: [UInt8]) -> NFCAAirAnswer {
        guard operand.count == 4, let (value, address) = valueBlock(block) else { return nak(4) }
        let delta = Int32(
            bitPattern: UInt32(operand[0]) | UInt32(operand[1]) << 8 | UInt32(operand[2]) << 16
                | UInt32(operand[3]) << 24)
        let result: (Int32, Bool)
        switch command {
        case 0xC1: result = value.addingReportingOverflow(delta)
        case 0xC0: result = value.subtractingReportingOverflow(delta)
        default: result = (value, false)
        }
        guard !result.1 else { return nak(4) }
        transferBuffer = (result.0, address)
        return .silence
    }
}
