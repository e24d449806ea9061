/// FeliCa command frames as a frontend in the FeliCa frame mode carries them (no LEN, no CRC: `code IDm
/// parameters`), built and read in one place for the Type 3 procedures and the system's `NFCFeliCaTag` commands
/// (JIS X 6319-4 §8.5 Polling, §8.6 the commands addressed by IDm).
package enum FeliCaFrame {
    /// Polling: `00 SC SC RC TSN` (JIS X 6319-4 §8.5.1); the system code big-endian, `FF` a wildcard byte.
    package static func polling(systemCode: [UInt8], requestCode: UInt8, timeSlot: UInt8) -> [UInt8] {
        [0x00] + systemCode + [requestCode, timeSlot]
    }

    /// A Polling answer: `01 IDm PMm [RD]` (JIS X 6319-4 §8.5.2), the request data present for request codes 01
    /// and 02.
    package struct PollingAnswer: Sendable, Hashable {
        package var idm: [UInt8]
        package var pmm: [UInt8]
        package var requestData: [UInt8]?

        /// Nil unless the answer is `01` followed by 16 or 18 bytes.
        package init?(_ b: [UInt8]) {
            guard b.first == 0x01, b.count == 17 || b.count == 19 else { return nil }
            idm = Array(b[1..<9])
            pmm = Array(b[9..<17])
            requestData = b.count == 19 ? Array(b[17..<19]) : nil
        }
    }

    /// A command addressed to the card with this IDm: `code IDm parameters`.
    package static func command(_ code: UInt8, idm: [UInt8], _ parameters: [UInt8]) -> [UInt8] {
        [code] + idm + parameters
    }

    /// The parameters of an answer to command `code` from the card `idm` (its response code is `code + 1`), or nil
    /// when the answer is shorter than code and IDm, answers another command, or comes from another IDm.
    package static func answer(_ b: [UInt8], to code: UInt8, idm: [UInt8]) -> [UInt8]? {
        guard b.count >= 9, b[0] == code &+ 1, Array(b[1..<9]) == idm else { return nil }
        return Array(b[9...])
    }
}
