internal import OpenNFCBytes
package import OpenNFCRF

/// The Type 3 commands the procedures use, over one frontend in the FeliCa frame mode (frames without LEN and CRC:
/// `code IDm parameters`), with their answers checked (NFC Forum Type 3 Tag Operation Specification 1.0 §5: Check =
/// Read Without Encryption `06`, Update = Write Without Encryption `08`; JIS X 6319-4 §8.5–§8.6 for Polling and the
/// block-list format).
///
/// Service codes travel little-endian, system codes big-endian; block-list elements are the 2-byte form (`80 nn`)
/// for blocks up to 255 and the 3-byte form (`00 nn nn`, little-endian) past them. A Check that meets a timeout or
/// a transmission error is sent once more (it changes nothing); an Update never is.
package struct Type3Link {
    let frontend: any RFFrontend
    package let idm: [UInt8]

    package init(frontend: any RFFrontend, idm: [UInt8]) {
        self.frontend = frontend
        self.idm = idm
    }

    /// The NDEF read service `000B` (random, read-only, no key) and write service `0009` (T3T 1.0 §5.5.1).
    static let readService: [UInt8] = [0x0B, 0x00]
    static let writeService: [UInt8] = [0x09, 0x00]

    /// The most blocks one Check may carry on this frontend: the answer `07 IDm SF1 SF2 n data` and the command both
    /// fit, and the FeliCa frame (LEN included) stays within 255 bytes.
    var checkLimit: Int {
        let caps = frontend.capabilities
        let byAnswer = (min(caps.maxResponseSize, 254) - 12) / 16
        let byCommand = (min(caps.maxCommandSize, 254) - 13) / 3
        return max(1, min(15, byAnswer, byCommand))
    }

    /// The most blocks one Update may carry: `08 IDm 01 svc n elements data` within the frontend and 255 bytes.
    var updateLimit: Int { max(1, min(13, (min(frontend.capabilities.maxCommandSize, 254) - 13) / 18)) }

    /// Polling for `systemCode` with request code 01, addressed to whoever answers, as JIS X 6319-4 §8.5.1 allows a
    /// reader to ask an activated card again: the IDm that answered when it is this card's, nil for silence or another
    /// card. A card with several systems answers each with its own IDm, the system number in the upper 4 bits of
    /// byte 0 and the other bits the same (FeliCa Card User's Manual, "Multiple systems"): that answer is this card.
    func polls(systemCode: UInt16) throws(TagError) -> [UInt8]? {
        let frame = FeliCaFrame.polling(
            systemCode: [UInt8(systemCode >> 8), UInt8(systemCode & 0xFF)], requestCode: 0x01, timeSlot: 0x00)
        let answer: RFResponse
        do {
            answer = try frontend.exchange(frame)
        } catch {
            if error.code == .timeout { return nil }
            throw .rf(error, during: "Polling \(Hex.encode(frame[1..<3]))")
        }
        guard case .frame(let b) = answer, let polled = FeliCaFrame.PollingAnswer(b) else {
            throw TagError(.invalidResponse, "Polling answered \(answer), expected 01 IDm PMm RD")
        }
        let answered = polled.idm
        // The link's IDm comes from the frontend (a PC/SC reader may report a short one): compare lengths first.
        guard answered.count == idm.count, let mine = idm.first, let theirs = answered.first,
            theirs & 0x0F == mine & 0x0F, answered.dropFirst() == idm.dropFirst()
        else { return nil }
        return answered
    }

    /// The same link addressed to another IDm (another system of the card).
    package func addressing(_ other: [UInt8]) -> Type3Link { Type3Link(frontend: frontend, idm: other) }

    /// Check: the 16 bytes of each block, in order.
    func check(_ blocks: [Int], service: [UInt8] = Self.readService) throws(TagError) -> [[UInt8]] {
        let name = "Check of block\(blocks.count == 1 ? "" : "s") \(blocks.map(String.init).joined(separator: ","))"
        let command = FeliCaFrame.command(
            FeliCaFrame.Code.readWithoutEncryption, idm: idm,
            [0x01] + service + [UInt8(blocks.count)] + FeliCaFrame.blockList(blocks))
        var answer: [UInt8]
        do {
            answer = try send(command, name: name)
        } catch let error where error.code == .rf && error.rfError?.allowsRepeatingARead == true {
            answer = try send(command, name: name)
        }
        try Self.checkStatus(answer, code: 0x07, idm: idm, name: name)
        guard answer.count == 12 + 16 * blocks.count, Int(answer[11]) == blocks.count else {
            throw TagError(
                .invalidResponse,
                "\(name) answered \(answer.count) bytes, expected \(12 + 16 * blocks.count) (\(blocks.count) blocks)")
        }
        return (0..<blocks.count).map { i in Array(answer[12 + 16 * i..<28 + 16 * i]) }
    }

    /// Update: writes each 16-byte block.
    func update(_ blocks: [Int], _ data: [[UInt8]]) throws(TagError) {
        precondition(blocks.count == data.count && data.allSatisfy { $0.count == 16 })
        let name = "Update of block\(blocks.count == 1 ? "" : "s") \(blocks.map(String.init).joined(separator: ","))"
        let command = FeliCaFrame.command(
            FeliCaFrame.Code.writeWithoutEncryption, idm: idm,
            [0x01] + Self.writeService + [UInt8(blocks.count)] + FeliCaFrame.blockList(blocks) + data.flatMap { $0 })
        let answer = try send(command, name: name)
        try Self.checkStatus(answer, code: 0x09, idm: idm, name: name)
        guard answer.count == 11 else {
            throw TagError(.invalidResponse, "\(name) answered \(answer.count) bytes, expected 11")
        }
    }

    /// Response code, IDm and status flags (SF1 at offset 9, SF2 at 10 without LEN); SF1 ≠ 0 is a refusal.
    static func checkStatus(_ a: [UInt8], code: UInt8, idm: [UInt8], name: String) throws(TagError) {
        guard a.count >= 11, a[0] == code, Array(a[1..<9]) == idm else {
            throw TagError(
                .invalidResponse,
                "\(name) answered \(Hex.encode(a.prefix(12))), expected \(Hex.encode([code])) IDm SF1 SF2")
        }
        guard a[9] == 0x00 else {
            var e = TagError(.commandRejected, "\(name) refused with status flags \(Hex.encode([a[9], a[10]]))")
            e.feliCaStatus = [a[9], a[10]]
            throw e
        }
    }

    func send(_ command: [UInt8], name: String) throws(TagError) -> [UInt8] {
        switch try frontend.exchange(command, naming: name) {
        case .frame(let b): return b
        case .ack, .nak: throw TagError(.invalidResponse, "\(name) answered an ACK/NAK; FeliCa answers with frames")
        }
    }
}
