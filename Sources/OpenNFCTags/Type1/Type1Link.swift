internal import OpenNFCBytes
internal import OpenNFCRF

/// The Type 1 commands the procedures use, over one frontend, with their answers checked (NFC Forum T1T 1.2 command
/// set; NFC Forum Digital Protocol, Type 1 Tag Platform). Every command but RID carries the tag's UID0–UID3; frames
/// go without CRC_B, which the frontend adds.
///
/// Reads are idempotent and a Type 1 tag keeps no state between commands, so a read that meets a timeout or a
/// transmission error is sent once more as it was. Writes are never repeated: a write whose answer was lost may or
/// may not have happened.
struct Type1Link {
    let frontend: any RFFrontend
    /// UID0–UID3, the echo every command carries.
    var uid: [UInt8]

    /// RID `78 00 00 00 00 00 00`: HR0, HR1 and UID0–UID3.
    static func rid(_ frontend: any RFFrontend) throws(TagError) -> (hr0: UInt8, hr1: UInt8, uid: [UInt8]) {
        let link = Type1Link(frontend: frontend, uid: [0, 0, 0, 0])
        let b = try link.readCommand([0x78, 0, 0, 0, 0, 0, 0], name: "RID")
        guard b.count == 6 else { throw TagError(.invalidResponse, "RID answered \(b.count) bytes, expected 6") }
        return (b[0], b[1], Array(b[2..<6]))
    }

    /// RALL `00 00 00 UID`: HR0 HR1 and bytes 0–119 (blocks 0–E).
    func rall() throws(TagError) -> (hr0: UInt8, hr1: UInt8, bytes: [UInt8]) {
        let b = try readCommand([0x00, 0x00, 0x00] + uid, name: "RALL")
        guard b.count == 122 else { throw TagError(.invalidResponse, "RALL answered \(b.count) bytes, expected 122") }
        return (b[0], b[1], Array(b[2...]))
    }

    /// READ `01 ADD 00 UID`: one byte of the static area (ADD 00h–7Fh).
    func read(_ address: Int) throws(TagError) -> UInt8 {
        let add = try Self.byte(address, "READ byte \(address)")
        let b = try readCommand([0x01, add, 0x00] + uid, name: "READ byte \(address)")
        guard b.count == 2, b[0] == add else {
            throw TagError(.invalidResponse, "READ byte \(address) answered \(b.hexString), expected ADD and 1 byte")
        }
        return b[1]
    }

    /// RSEG `10 ADDS 00×8 UID`: the 128 bytes of segment `segment`.
    func readSegment(_ segment: Int) throws(TagError) -> [UInt8] {
        let adds = try Self.byte(segment << 4, "RSEG segment \(segment)")
        let b = try readCommand([0x10, adds] + [UInt8](repeating: 0, count: 8) + uid, name: "RSEG \(segment)")
        guard b.count == 129, b[0] == adds else {
            throw TagError(.invalidResponse, "RSEG \(segment) answered \(b.count) bytes, expected ADDS and 128")
        }
        return Array(b[1...])
    }

    /// READ8 `02 ADD8 00×8 UID`: the 8 bytes of block `block`.
    func readBlock(_ block: Int) throws(TagError) -> [UInt8] {
        let b = try readCommand(
            [0x02, try Self.byte(block, "READ8 block \(block)")] + [UInt8](repeating: 0, count: 8) + uid,
            name: "READ8 block \(block)")
        guard b.count == 9, b[0] == UInt8(block) else {
            throw TagError(.invalidResponse, "READ8 block \(block) answered \(b.hexString), expected ADD8 and 8 bytes")
        }
        return Array(b[1...])
    }

    /// An address field of one byte (ADD, ADD8, ADDS: NFC Forum T1T §8), or an error naming the command: a number
    /// beyond it comes from a hostile or broken tag's TLVs (a Lock or Memory Control TLV pointing past the memory).
    static func byte(_ n: Int, _ name: String) throws(TagError) -> UInt8 {
        guard (0...0xFF).contains(n) else {
            throw TagError(.invalidResponse, "\(name): \(n) does not fit the command's one-byte address")
        }
        return UInt8(n)
    }

    /// WRITE-E `53 ADD DATA UID` (erase) or WRITE-NE `1A ADD DATA UID` (OR): returns the byte as stored afterwards.
    func write(_ address: Int, _ value: UInt8, erase: Bool) throws(TagError) -> UInt8 {
        let name = "\(erase ? "WRITE-E" : "WRITE-NE") byte \(address)"
        let add = try Self.byte(address, name)
        let b = try writeCommand([erase ? 0x53 : 0x1A, add, value] + uid, name: name)
        guard b.count == 2, b[0] == add else {
            throw TagError(.invalidResponse, "\(name) answered \(b.hexString), expected ADD and 1 byte")
        }
        return b[1]
    }

    /// WRITE-E8 `54 ADD8 D0–D7 UID` (erase) or WRITE-NE8 `1B ADD8 D0–D7 UID` (OR): returns the block as stored.
    func writeBlock(_ block: Int, _ bytes: [UInt8], erase: Bool) throws(TagError) -> [UInt8] {
        precondition(bytes.count == 8)
        let name = "\(erase ? "WRITE-E8" : "WRITE-NE8") block \(block)"
        let add8 = try Self.byte(block, name)
        let b = try writeCommand([erase ? 0x54 : 0x1B, add8] + bytes + uid, name: name)
        guard b.count == 9, b[0] == add8 else {
            throw TagError(.invalidResponse, "\(name) answered \(b.hexString), expected ADD8 and 8 bytes")
        }
        return Array(b[1...])
    }

    private func readCommand(_ command: [UInt8], name: String) throws(TagError) -> [UInt8] {
        do {
            return try send(command, name: name)
        } catch let error where error.code == .rf && error.rfError?.allowsRepeatingARead == true {
            return try send(command, name: name)
        }
    }

    private func writeCommand(_ command: [UInt8], name: String) throws(TagError) -> [UInt8] {
        try send(command, name: name)
    }

    private func send(_ command: [UInt8], name: String) throws(TagError) -> [UInt8] {
        switch try frontend.exchange(command, naming: name) {
        case .frame(let b): return b
        case .ack: throw TagError(.invalidResponse, "\(name) answered ACK; Type 1 tags answer with data")
        case .nak(let n): throw TagError(.invalidResponse, "\(name) answered NAK \(n); Type 1 tags answer with data")
        }
    }
}
