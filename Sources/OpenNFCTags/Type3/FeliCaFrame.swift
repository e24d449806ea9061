internal import OpenNFCBytes

/// FeliCa command frames as a frontend in the FeliCa frame mode carries them (no LEN, no CRC: `code IDm
/// parameters`), built and read in one place for the Type 3 procedures and the system's `NFCFeliCaTag` commands
/// (JIS X 6319-4 §8.5 Polling, §8.6 the commands addressed by IDm).
package enum FeliCaFrame {
    /// Command codes (JIS X 6319-4 §8.5–§8.6; FeliCa Card User's Manual, Excerpted Edition §4.4); the answer's
    /// response code is the command's plus one.
    package enum Code {
        package static let polling: UInt8 = 0x00
        package static let requestService: UInt8 = 0x02
        package static let requestResponse: UInt8 = 0x04
        package static let readWithoutEncryption: UInt8 = 0x06
        package static let writeWithoutEncryption: UInt8 = 0x08
        package static let searchServiceCode: UInt8 = 0x0A
        package static let requestSystemCode: UInt8 = 0x0C
        package static let requestServiceV2: UInt8 = 0x32
        package static let requestSpecificationVersion: UInt8 = 0x3C
        package static let resetMode: UInt8 = 0x3E
    }

    /// The two reserved parameter bytes, `00 00`, that Request Specification Version and Reset Mode carry after the
    /// IDm (FeliCa Card User's Manual, Excerpted Edition §4.4.15 and §4.4.16).
    package static let reservedParameters: [UInt8] = [0x00, 0x00]

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

    /// Block-list elements for `blocks` of the first service in the list, access mode 0 (JIS X 6319-4 §8.6.3): the
    /// 2-byte form `80 nn` up to block 255, the 3-byte form `00 nn nn` (block number little-endian) past it.
    package static func blockList(_ blocks: [Int]) -> [UInt8] {
        blocks.flatMap { b -> [UInt8] in b < 256 ? [0x80, UInt8(b)] : [0x00, UInt8(b & 0xFF), UInt8(b >> 8 & 0xFF)] }
    }

    /// A service or node code as it travels: little-endian.
    package static func littleEndian(_ code: UInt16) -> [UInt8] { [UInt8(code & 0xFF), UInt8(code >> 8)] }

    /// A 16-bit code as people write it: `000B`.
    package static func hex4(_ c: UInt16) -> String { Hex.encode([UInt8(c >> 8), UInt8(c & 0xFF)]) }

    /// Status Flag 2 in words (JIS X 6319-4 §8.6; FeliCa Lite-S User's Manual §5.3).
    package static func statusName(_ sf2: UInt8) -> String {
        switch sf2 {
        case 0xA1: "service count"
        case 0xA2: "block count or packet length"
        case 0xA3: "service list index"
        case 0xA4: "read-only service"
        case 0xA5: "needs a key"
        case 0xA6: "no such service"
        case 0xA7: "access mode"
        case 0xA8: "no such block, or not writable"
        case 0xA9: "write counter exhausted"
        case 0xB1: "needs external authentication"
        case 0xB2: "needs MAC_A"
        default: "status \(Hex.encode([sf2]))"
        }
    }
}
