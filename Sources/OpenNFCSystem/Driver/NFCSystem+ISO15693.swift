internal import OpenNFCRF
package import OpenNFCTags

/// ISO/IEC 15693 through Core NFC (docs/PARITY.md, docs/DIFFERENCES.md "Type 5 tags"): each `NFCISO15693Tag` command
/// is one request framed by ``ISO15693Request`` (`OpenNFCTags/Type5/`) with the app's request flags, addressed to the
/// delivered tag's UID unless the Select flag is set, and carried to the frontend as it is (`RFFrameMode.nfcV`; the
/// frontend adds the CRC).
extension NFCSystem {
    /// Sends `request` to the delivered ISO 15693 tag with the app's request `flags` (``ISO15693Request/frame(flags:uid:)``
    /// sets the addressing as Core NFC does) and returns the answer, response flags byte first; the checks and the
    /// error mapping are ``sendISO15693(_:_:passingErrors:silent:)``'s.
    package func iso15693(
        _ ref: TagReference, flags: UInt8, _ request: ISO15693Request, passingErrors: Bool = false,
        silent: Bool = false
    ) throws(SystemError) -> [UInt8] {
        try iso15693Exchange(ref, passingErrors: passingErrors, silent: silent) { uid in
            request.frame(flags: flags, uid: uid)
        }
    }

    /// Read Multiple Blocks (`fast`: Fast Read Multiple Blocks) of `count` blocks from `first`, the answer split
    /// into blocks of one size (else 102 with `NFCTagResponseUnexpectedLengthErrorKey`). Ranges as Core NFC checks
    /// them: ``checkISO15693Range(first:count:extended:)``.
    package func iso15693ReadBlocks(
        _ ref: TagReference, flags: UInt8, first: Int, count: Int, extended: Bool, fast: Bool
    ) throws(SystemError) -> [[UInt8]] {
        try Self.checkISO15693Range(first: first, count: count, extended: extended)
        let request =
            fast
            ? ISO15693Request.fastReadMultipleBlocks(first: first, count: count, extended: extended)
            : .readMultipleBlocks(first: first, count: count, extended: extended)
        let data = Array(try iso15693(ref, flags: flags, request).dropFirst())
        guard count > 0, !data.isEmpty, data.count % count == 0 else {
            throw SystemError(
                .tagResponseError, "\(data.count) data bytes cannot be \(count) blocks", unexpectedLength: true)
        }
        let size = data.count / count
        return (0..<count).map { Array(data[($0 * size)..<(($0 + 1) * size)]) }
    }

    /// Write Multiple Blocks of `data` (as many blocks as the range holds, all of one non-zero size, else 4) from
    /// `first`.
    package func iso15693WriteBlocks(
        _ ref: TagReference, flags: UInt8, first: Int, count: Int, data: [[UInt8]], extended: Bool
    ) throws(SystemError) {
        try Self.checkISO15693Range(first: first, count: count, extended: extended)
        guard data.count == count else {
            throw SystemError(.invalidParameterLength, "\(data.count) data blocks for a range of \(count) blocks")
        }
        guard let size = data.first?.count, size > 0, data.allSatisfy({ $0.count == size }) else {
            throw SystemError(.invalidParameterLength, "the data blocks are empty or not all of one size")
        }
        let request = ISO15693Request.writeMultipleBlocks(
            first: first, count: count, data.flatMap { $0 }, extended: extended)
        _ = try iso15693(ref, flags: flags, request)
    }

    /// Get Multiple Block Security Status of `count` blocks from `first`: one status byte a block (else 102 with
    /// `NFCTagResponseUnexpectedLengthErrorKey`).
    package func iso15693SecurityStatus(
        _ ref: TagReference, flags: UInt8, first: Int, count: Int, extended: Bool
    ) throws(SystemError) -> [Int] {
        try Self.checkISO15693Range(first: first, count: count, extended: extended)
        let request = ISO15693Request.getMultipleBlockSecurityStatus(first: first, count: count, extended: extended)
        let status = Array(try iso15693(ref, flags: flags, request).dropFirst())
        guard status.count == count else {
            throw SystemError(
                .tagResponseError, "\(status.count) status bytes for \(count) blocks", unexpectedLength: true)
        }
        return status.map(Int.init)
    }

    /// Core NFC's block ranges: first block 0–255 and 1–256 blocks ending by block 255 (extended: 0–65535,
    /// 1–65536, ending by 65535), else 5 (parameter out of bound).
    package static func checkISO15693Range(first: Int, count: Int, extended: Bool) throws(SystemError) {
        let end = extended ? 0x10000 : 0x100
        guard first >= 0, first < end, count >= 1, count <= end, first + count <= end else {
            throw SystemError(
                .parameterOutOfBound,
                "block range \(first)+\(count) is outside blocks 0…\(end - 1) (1–\(end) blocks)")
        }
    }

    /// An extended block number: 0–65535, else 5 (parameter out of bound).
    package static func checkISO15693ExtendedBlock(_ n: Int) throws(SystemError) -> Int {
        guard (0...0xFFFF).contains(n) else {
            throw SystemError(.parameterOutOfBound, "block number \(n) is outside 0…65535")
        }
        return n
    }

    /// A request field the app gives as an `Int` that travels as one byte, else 5 (parameter out of bound).
    package static func checkISO15693Byte(_ value: Int, _ what: String) throws(SystemError) -> UInt8 {
        guard (0...0xFF).contains(value) else {
            throw SystemError(.parameterOutOfBound, "\(what) \(value) is not a byte")
        }
        return UInt8(value)
    }

    /// Sends a request the app framed itself (`sendRequest(requestFlags:commandCode:data:)`: its flags, its command,
    /// its data, nothing added) and returns the answer, response flags byte first. At most 256 bytes go out (Core
    /// NFC's frame limit: 105 beyond). An answer with the Error flag (ISO/IEC 15693-3 §10.2.3) fails with 102 carrying
    /// the tag's error code (`NFCISO15693TagResponseErrorKey`) unless `passingErrors`, for the commands whose answer
    /// flags reach the app. `silent` commands (Stay Quiet, §10.4.3) have no answer: silence is their success.
    package func sendISO15693(
        _ ref: TagReference, _ frame: [UInt8], passingErrors: Bool = false, silent: Bool = false
    ) throws(SystemError) -> [UInt8] {
        try iso15693Exchange(ref, passingErrors: passingErrors, silent: silent) { _ in frame }
    }

    /// One request to the delivered tag: `frame` is given the tag's UID (MSB first).
    private func iso15693Exchange(
        _ ref: TagReference, passingErrors: Bool, silent: Bool, frame build: ([UInt8]) -> [UInt8]
    ) throws(SystemError) -> [UInt8] {
        touch()
        return try operation(ref) { (s, entry, frontend) throws(SystemError) in
            guard case .iso15693 = entry.tag.kind else {
                throw SystemError(.unsupportedFeature, "ISO 15693 requests need an ISO 15693 tag")
            }
            let frame = build(entry.tag.identifier)
            guard frame.count >= 2 else { throw SystemError(.invalidParameterLength, "a request without a command") }
            guard frame.count <= 256, frame.count <= frontend.capabilities.maxCommandSize else {
                throw SystemError(.packetTooLong, "an ISO 15693 request of \(frame.count) bytes (at most 256)")
            }
            let response: RFResponse
            do throws(RFError) {
                response = try frontend.exchange(frame)
            } catch  where silent && error.code == .timeout {
                return []
            } catch {
                throw lost(s, ref, SystemError(rf: error))
            }
            guard case .frame(let answer) = response, let flags = answer.first else {
                throw SystemError(.tagResponseError, "the tag answered \(response)", unexpectedLength: true)
            }
            if flags & 0x01 != 0 && !passingErrors {
                guard answer.count >= 2 else {
                    throw SystemError(.tagResponseError, "an error answer without its code", unexpectedLength: true)
                }
                throw SystemError(
                    .tagResponseError, "the tag answered error \(answer[1]) to command \(frame[1])",
                    tagStatus: .iso15693(answer[1]))
            }
            return answer
        }
    }
}
