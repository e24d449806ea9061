internal import OpenNFCBytes
internal import OpenNFCRF

/// An ISO 7816-4 response APDU: data and status word (ISO 7816-4 §5.1).
struct ResponseAPDU {
    var data: [UInt8]
    var sw: UInt16
    var isSuccess: Bool { sw == 0x9000 }
}

/// Sends command APDUs as ISO-DEP payloads and splits the answers (ISO 7816-4 §5).
///
/// Nothing is repeated here: ISO-DEP's own error recovery (R(NAK), retransmission of the last block) is the
/// frontend's job (ISO 14443-4 §7.5), and an APDU that failed above it may or may not have been executed.
struct APDULink {
    let frontend: any RFFrontend

    func send(_ apdu: [UInt8], name: String) throws(TagError) -> ResponseAPDU {
        let answer: RFResponse
        do {
            answer = try frontend.exchange(apdu)
        } catch {
            throw .rf(error, during: name)
        }
        guard case .frame(let b) = answer else {
            throw TagError(.invalidResponse, "\(name) answered \(answer), expected a response APDU")
        }
        guard b.count >= 2 else {
            throw TagError(.invalidResponse, "\(name) answered \(b.count) byte(s), shorter than a status word")
        }
        return ResponseAPDU(data: Array(b.dropLast(2)), sw: UInt16(b[b.count - 2]) << 8 | UInt16(b[b.count - 1]))
    }

    /// Sends and requires `90 00`.
    func expectSuccess(_ apdu: [UInt8], name: String) throws(TagError) -> [UInt8] {
        let r = try send(apdu, name: name)
        guard r.isSuccess else { throw TagError(.commandRejected, "\(name) refused", statusWord: r.sw) }
        return r.data
    }
}
