/// One BER-TLV data object inside a byte string (ISO/IEC 7816-4 §5.2.2; ITU-T X.690 §8.1 for DER): a tag of one or
/// two bytes (the second when the first's low five bits are all set) and a definite length of one byte or `81`/`82`
/// followed by one or two. Shared by the VAS terminal and the EF.CardAccess reader.
enum BERTLV {
    /// The object starting at `start`: its tag (two-byte tags as `first << 8 | second`) and the range of its value;
    /// nil when it runs past the end or uses a length form other than these.
    static func element(_ b: [UInt8], at start: Int) -> (tag: UInt16, value: Range<Int>)? {
        var i = start
        guard i < b.count else { return nil }
        var tag = UInt16(b[i])
        i += 1
        if tag & 0x1F == 0x1F {
            guard i < b.count else { return nil }
            tag = tag << 8 | UInt16(b[i])
            i += 1
        }
        guard i < b.count else { return nil }
        var n = Int(b[i])
        i += 1
        if n == 0x81 || n == 0x82 {
            let count = n & 0x03
            guard i + count <= b.count else { return nil }
            n = b[i..<(i + count)].reduce(0) { $0 << 8 | Int($1) }
            i += count
        } else if n > 0x80 {
            return nil
        }
        guard i + n <= b.count else { return nil }
        return (tag, i..<(i + n))
    }
}
