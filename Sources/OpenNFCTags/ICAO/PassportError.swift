/// Why reading or verifying an eMRTD failed: a stable ``code``, a sentence naming the command, file, data group or
/// byte offset, and the chip's status word where there was one.
package struct PassportError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// The link failed (the document left the field, a timeout): ``PassportError/tagError`` says how.
        case transport
        /// BAC or PACE failed: the MRZ or CAN does not match the document (or the chip refused the protocol).
        case accessDenied
        /// Secure messaging broke: a wrong response MAC, missing SM data objects, or the chip ended the session.
        case secureMessaging
        /// The chip refused a command with an error status word.
        case commandRejected
        /// A file or response does not follow ICAO Doc 9303 (the reason names the file and byte offset).
        case malformed
        /// The document uses something this reader does not implement.
        case unsupported
        /// A check failed: Active or Chip Authentication.
        case verificationFailed
        /// The MRZ or CAN given by the user is not valid.
        case invalidInput
    }

    package var code: Code
    package var reason: String
    package var statusWord: UInt16?
    package var tagError: TagError?

    package init(_ code: Code, _ reason: String, statusWord: UInt16? = nil, tagError: TagError? = nil) {
        self.code = code
        self.reason = reason
        self.statusWord = statusWord
        self.tagError = tagError
    }

    package var description: String {
        guard let statusWord else { return "\(code.rawValue): \(reason)" }
        let hex = String(statusWord, radix: 16, uppercase: true)
        return "\(code.rawValue): \(reason) (SW \(String(repeating: "0", count: 4 - hex.count))\(hex))"
    }
}
