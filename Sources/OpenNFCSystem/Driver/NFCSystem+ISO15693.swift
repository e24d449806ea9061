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
