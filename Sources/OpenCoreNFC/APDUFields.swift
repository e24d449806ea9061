/// The fields of a command APDU and their byte encoding (ISO/IEC 7816-4 §5.1), shared by ``NFCISO7816APDU``.
struct APDUFields: Hashable {
    var cla: UInt8
    var ins: UInt8
    var p1: UInt8
    var p2: UInt8
    var data: [UInt8]
    /// 1…65536, or −1 for no Le.
    var le: Int

    enum EncodingProblem: Hashable {
        case dataTooLong
        case expectedLengthOutOfRange
    }

    /// Why these fields cannot be encoded, if they cannot.
    var problem: EncodingProblem? {
        if data.count > 65535 { return .dataTooLong }
        if le == 0 || le < -1 || le > 65536 { return .expectedLengthOutOfRange }
        return nil
    }

    /// The wire bytes (call only when ``problem`` is nil).
    var encoded: [UInt8] {
        var out: [UInt8] = [cla, ins, p1, p2]
        let extended = le > 256 || data.count >= 256
        if !data.isEmpty {
            if extended {
                out += [0x00, UInt8(data.count >> 8), UInt8(data.count & 0xFF)]
            } else {
                out.append(UInt8(data.count))
            }
            out += data
        }
        if le >= 1 {
            let value = le == 65536 ? 0 : le
            if data.isEmpty && le >= 257 {
                out += [0x00, UInt8(value >> 8), UInt8(value & 0xFF)]
            } else if extended {
                out += [UInt8(value >> 8), UInt8(value & 0xFF)]
            } else {
                out.append(UInt8(le == 256 ? 0 : le))
            }
        }
        return out
    }

    init(cla: UInt8, ins: UInt8, p1: UInt8, p2: UInt8, data: [UInt8], le: Int) {
        self.cla = cla
        self.ins = ins
        self.p1 = p1
        self.p2 = p2
        self.data = data
        self.le = le
    }

    /// Parses ISO/IEC 7816-4 cases 1, 2S/2E, 3S/3E, 4S/4E; nil when the length does not match any case.
    init?(parsing b: [UInt8]) {
        guard b.count >= 4 else { return nil }
        self.init(cla: b[0], ins: b[1], p1: b[2], p2: b[3], data: [], le: -1)
        let n = b.count
        if n == 4 { return }  // case 1
        if n == 5 {  // case 2S
            le = b[4] == 0 ? 256 : Int(b[4])
            return
        }
        if b[4] != 0 {  // short Lc
            let lc = Int(b[4])
            if n == 5 + lc {
                data = Array(b[5..<n])
            } else if n == 6 + lc {
                data = Array(b[5..<(5 + lc)])
                le = b[n - 1] == 0 ? 256 : Int(b[n - 1])
            } else {
                return nil
            }
            return
        }
        guard n >= 7 else { return nil }
        let first = Int(b[5]) << 8 | Int(b[6])
        if n == 7 {  // case 2E
            le = first == 0 ? 65536 : first
            return
        }
        guard first != 0 else { return nil }
        if n == 7 + first {  // case 3E
            data = Array(b[7..<n])
        } else if n == 9 + first {  // case 4E
            data = Array(b[7..<(7 + first)])
            let l = Int(b[n - 2]) << 8 | Int(b[n - 1])
            le = l == 0 ? 65536 : l
        } else {
            return nil
        }
    }
}
