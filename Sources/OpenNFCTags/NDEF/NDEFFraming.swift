/// A structural check of an NDEF message's record framing (NFC Forum NDEF 1.0 §3.2):
/// MB on the first record only, ME on the last, record lengths adding up to exactly the message length.
///
/// The reader procedures use it to tell a complete message from one cut short or mixed by an interrupted write; the
/// record contents are the NDEF codec's business.
enum NDEFFraming {
    /// `message` when its framing is sound, else `tornStateDetected` naming what is wrong.
    static func checked(_ message: [UInt8]) throws(TagError) -> [UInt8] {
        if let problem = problem(in: message) {
            throw TagError(.tornStateDetected, "the \(message.count)-byte NDEF message is malformed: \(problem)")
        }
        return message
    }

    /// Nil when the framing is sound, else what is wrong and where.
    static func problem(in m: [UInt8]) -> String? {
        var i = 0
        var index = 0
        while true {
            guard i < m.count else { return "record \(index) at byte \(i) is missing (no ME flag before the end)" }
            let flags = m[i]
            let mb = flags & 0x80 != 0
            let me = flags & 0x40 != 0
            let sr = flags & 0x10 != 0
            let il = flags & 0x08 != 0
            if mb != (index == 0) { return "record \(index) at byte \(i) has MB \(mb ? "set" : "clear")" }
            var j = i + 1
            guard j < m.count else { return "record \(index) header at byte \(i) is truncated" }
            let typeLength = Int(m[j])
            j += 1
            var payloadLength = 0
            let lengthBytes = sr ? 1 : 4
            guard j + lengthBytes <= m.count else { return "record \(index) header at byte \(i) is truncated" }
            for k in 0..<lengthBytes { payloadLength = payloadLength << 8 | Int(m[j + k]) }
            j += lengthBytes
            var idLength = 0
            if il {
                guard j < m.count else { return "record \(index) header at byte \(i) is truncated" }
                idLength = Int(m[j])
                j += 1
            }
            let end = j + typeLength + idLength + payloadLength
            guard end <= m.count else {
                return "record \(index) at byte \(i) needs \(end - m.count) bytes more than the message holds"
            }
            i = end
            index += 1
            if me {
                return i == m.count ? nil : "\(m.count - i) bytes follow the record with ME at byte \(i)"
            }
        }
    }
}
