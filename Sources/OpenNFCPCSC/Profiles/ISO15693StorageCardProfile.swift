internal import OpenNFCBytes
package import OpenNFCRF
internal import Synchronization

/// ISO/IEC 15693 tags through a reader that offers only PC/SC Part 3 storage-card access (PC/SC Part 3 §3.2.2.1,
/// READ BINARY and UPDATE BINARY), addressed **by block**: P1 P2 = block number (MSB, LSB), as ACS-style
/// readers do (a reader that takes a byte address in P1 P2, as the ubisys 7047 does, is not handled by this profile).
///
/// | ISO 15693 request (any addressing) | Sent as | Answer |
/// |---|---|---|
/// | Read Single Block `20`/`30` N | `FF B0 NN NN 00` (Le `00`: the whole block, as ACS readers read ISO 15693) | `00 <block>`; the block size is learnt from this answer |
/// | Read Multiple Blocks `23`/`33` N, n − 1 | `FF B0 NN NN <n × block size>` (the size learnt, else one block first) | `00 <blocks>` |
/// | Write Single Block `21`/`31` N data | `FF D6 NN NN <size> <data>` (the reader sets the Option flag its chip needs) | `90 00` → `00` |
/// | Refused read or write | SW `6A 82` (beyond the memory) → error `01 10`; any other non-`90 00` → error `01 0F` (the reader does not pass the tag's code on) | |
/// | Inventory, Get System Information, Lock Block, AFI/DSFID, security status, reads with the Option flag, custom commands | — | `RFError.unsupported`: they need a transparent session (``TransparentSessionProfile``) |
///
/// The UID comes from `FF CA 00 00 00` at poll time; DSFID and AFI are not visible through Part 3.
package struct ISO15693StorageCardProfile: PCSCProfile {
    package var name: String { "PC/SC Part 3 storage card (ISO 15693, by block)" }

    /// The block size learnt from the first Read Single Block (blocks are 4 bytes on ICODE, ST25DV and Tag-it).
    private let learntBlockSize = LearntSize()

    package init() {}

    /// Le is one byte and `00` means "one whole block" here, so a read carries at most 255 data bytes, plus the
    /// flags byte the profile puts in front.
    package var capabilities: RFCapabilities {
        RFCapabilities(
            maxCommandSize: 255, maxResponseSize: 256, rawFrames: false, technologies: [.nfcV], frameModes: [.nfcV])
    }

    package func exchange(_ command: [UInt8], on card: PCSCCard) throws(RFError) -> RFResponse {
        guard command.count >= 2 else {
            throw RFError(.protocolViolation, "ISO 15693 request of \(command.count) bytes")
        }
        let flags = command[0]
        let code = command[1]
        var i = 2 + (flags & 0x20 != 0 ? 8 : 0)
        let extended = (0x30...0x3C).contains(code)
        let blockBytes = extended ? 2 : 1
        func block() throws(RFError) -> Int {
            guard command.count >= i + blockBytes else {
                throw RFError(.protocolViolation, "request \(command.hexString) ends before its block number")
            }
            defer { i += blockBytes }
            return extended ? Int(command[i]) | Int(command[i + 1]) << 8 : Int(command[i])
        }
        let optionFlag = flags & 0x40 != 0
        switch code {
        case 0x20 where !optionFlag, 0x30 where !optionFlag:
            let n = try block()
            return try read(first: n, le: 0x00, card)
        case 0x23 where !optionFlag, 0x33 where !optionFlag:
            let n = try block()
            let count = try block() + 1
            var size = learntBlockSize.value
            var out: [UInt8] = []
            var first = n
            if size == nil {
                guard case .frame(let one) = try read(first: n, le: 0x00, card), one.first == 0x00 else {
                    return .frame([0x01, 0x0F])
                }
                size = one.count - 1
                out = Array(one.dropFirst())
                first += 1
            }
            let bs = max(1, size ?? 4)
            let rest = n + count - first
            guard rest > 0 else { return .frame([0x00] + out) }
            guard rest * bs <= 255 else {
                throw RFError(
                    .frameTooLong, "\(rest * bs) bytes in one READ BINARY; this profile's Le carries at most 255")
            }
            guard case .frame(let more) = try read(first: first, le: UInt8(rest * bs), card),
                more.first == 0x00
            else { return .frame([0x01, 0x0F]) }
            return .frame([0x00] + out + more.dropFirst())
        case 0x21, 0x31:
            let n = try block()
            let data = Array(command[i...])
            guard !data.isEmpty, data.count <= 255 else {
                throw RFError(.protocolViolation, "WRITE SINGLE BLOCK \(n) with \(data.count) data bytes")
            }
            let r = try card.transmitForRF([0xFF, 0xD6, UInt8(n >> 8), UInt8(n & 0xFF), UInt8(data.count)] + data)
            return .frame(Self.answer(r, data: []))
        default:
            throw RFError(
                .unsupported,
                "reader '\(card.reader)' offers only PC/SC Part 3 READ/UPDATE BINARY (FF B0/FF D6) for this ISO 15693 "
                    + "tag; command \(Hex.encode([code]))\(optionFlag ? " with the Option flag" : "") needs a reader "
                    + "with a PC/SC 2.02 transparent session (ACR1552U, OMNIKEY 5x22/5x27, Identiv)")
        }
    }

    private func read(first: Int, le: UInt8, _ card: PCSCCard) throws(RFError) -> RFResponse {
        guard first <= 0xFFFF else { return .frame([0x01, 0x10]) }
        let r = try card.transmitForRF([0xFF, 0xB0, UInt8(first >> 8), UInt8(first & 0xFF), le])
        if r.isSuccess && le == 0x00 && !r.data.isEmpty && learntBlockSize.value == nil {
            learntBlockSize.value = r.data.count
        }
        return .frame(Self.answer(r, data: r.data))
    }

    /// `00 data` for `90 00`; the error form `01 code` otherwise (ISO/IEC 15693-3 §10.2.4: `10` block not available).
    static func answer(_ r: APDUResponse, data: [UInt8]) -> [UInt8] {
        if r.isSuccess { return [0x00] + data }
        return [0x01, r.sw == 0x6A82 ? 0x10 : 0x0F]
    }
}

/// The block size one activation learns (the profile is a value shared by copies).
private final class LearntSize: Sendable {
    private let storage = Mutex<Int?>(nil)
    var value: Int? {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }
}
