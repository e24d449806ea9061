import OpenNFCBytes

/// A command APDU as the card receives it (ISO/IEC 7816-3 §12.1, ISO/IEC 7816-4 §5.1): the card-side reading of the
/// bytes an ISO-DEP I-block carries. Reader code builds its own APDUs; this type only decodes what arrived.
///
/// The decoding follows the four cases of ISO/IEC 7816-3 §12.1.2, short and extended:
///
/// | Case | Bytes after the header | `data` | `ne` |
/// |---|---|---|---|
/// | 1 | none | empty | nil |
/// | 2S | `Le` | empty | 1…256 (`00` = 256) |
/// | 3S | `Lc` (01–FF) data | Lc bytes | nil |
/// | 4S | `Lc` data `Le` | Lc bytes | 1…256 |
/// | 2E | `00 Le1 Le2` | empty | 1…65536 (`0000` = 65536) |
/// | 3E | `00 Lc1 Lc2` data | Lc bytes | nil |
/// | 4E | `00 Lc1 Lc2` data `Le1 Le2` | Lc bytes | 1…65536 |
public struct ISO7816Command: Sendable, Hashable, CustomStringConvertible {
    /// Why a frame is not a well-formed command APDU; the card answers `67 00` (wrong length).
    public struct DecodingError: Error, Sendable, Hashable, CustomStringConvertible {
        /// What is wrong, naming the byte offset inside the APDU.
        public var reason: String
        public init(reason: String) { self.reason = reason }
        public var description: String { reason }
    }

    public var cla: UInt8
    public var ins: UInt8
    public var p1: UInt8
    public var p2: UInt8
    /// The command data field (empty when `Lc` is absent).
    public var data: [UInt8]
    /// Ne, the maximum number of response data bytes the reader expects; nil when `Le` is absent.
    public var ne: Int?
    /// True when the APDU used the extended length encoding (`Lc`/`Le` on 2 bytes after a `00`).
    public var isExtended: Bool

    public init(
        cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8] = [], ne: Int? = nil, isExtended: Bool = false
    ) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.ne = ne
        self.isExtended = isExtended
    }

    /// Decodes one command APDU (ISO/IEC 7816-3 §12.1.3 decoding rules).
    public init(decoding bytes: [UInt8]) throws(DecodingError) {
        guard bytes.count >= 4 else {
            throw DecodingError(reason: "APDU of \(bytes.count) byte(s) is shorter than its 4-byte header")
        }
        cla = bytes[0]
        ins = bytes[1]
        p1 = bytes[2]
        p2 = bytes[3]
        data = []
        ne = nil
        isExtended = false
        let body = bytes.count - 4
        if body == 0 { return }  // case 1
        let b4 = Int(bytes[4])
        if body == 1 {  // case 2S
            ne = b4 == 0 ? 256 : b4
            return
        }
        if b4 != 0 {  // case 3S or 4S
            let lc = b4
            let rest = body - 1 - lc
            guard rest == 0 || rest == 1 else {
                throw DecodingError(
                    reason: "Lc \(lc) at byte 4 does not match the \(body - 1) byte(s) that follow it")
            }
            data = Array(bytes[5..<5 + lc])
            if rest == 1 { ne = bytes[5 + lc] == 0 ? 256 : Int(bytes[5 + lc]) }
            return
        }
        // Extended: byte 4 is 00.
        isExtended = true
        guard body >= 3 else {
            throw DecodingError(reason: "extended length field at byte 4 needs 3 bytes, only \(body) present")
        }
        let l = Int(bytes[5]) << 8 | Int(bytes[6])
        if body == 3 {  // case 2E
            ne = l == 0 ? 65536 : l
            return
        }
        guard l != 0 else {
            throw DecodingError(reason: "extended Lc 0000 at byte 4 followed by \(body - 3) byte(s)")
        }
        let rest = body - 3 - l
        guard rest == 0 || rest == 2 else {
            throw DecodingError(
                reason: "extended Lc \(l) at byte 4 does not match the \(body - 3) byte(s) that follow it")
        }
        data = Array(bytes[7..<7 + l])
        if rest == 2 {
            let le = Int(bytes[7 + l]) << 8 | Int(bytes[8 + l])
            ne = le == 0 ? 65536 : le
        }
    }

    /// True when `Le` was all zeros: "as many bytes as available, up to 256 (short) or 65536 (extended)".
    public var neIsMaximum: Bool { ne == (isExtended ? 65536 : 256) }

    /// The APDU bytes again, in the same short or extended form.
    public var encoded: [UInt8] {
        var out: [UInt8] = [cla, ins, p1, p2]
        if isExtended {
            if !data.isEmpty {
                out += [0, UInt8(data.count >> 8 & 0xFF), UInt8(data.count & 0xFF)]
                out += data
            }
            if let ne {
                if data.isEmpty { out.append(0) }
                out += [UInt8(ne >> 8 & 0xFF), UInt8(ne & 0xFF)]
            }
        } else {
            if !data.isEmpty {
                out.append(UInt8(data.count))
                out += data
            }
            if let ne { out.append(UInt8(ne & 0xFF)) }
        }
        return out
    }

    public var description: String {
        var s = Hex.encode([cla, ins, p1, p2], separator: " ")
        if !data.isEmpty { s += " Lc=\(data.count) " + Hex.encode(data) }
        if let ne { s += " Ne=\(ne)" }
        return s
    }
}
