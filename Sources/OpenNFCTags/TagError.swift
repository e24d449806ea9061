package import OpenNFCRF

/// Why a reader procedure failed: a stable ``Code``, a human reason, the source location that raised it, and the
/// tag's own answer where there was one (NAK nibble or ISO 7816 status word) or the RF failure underneath.
///
/// Tests compare ``code``; the reason text may change. The session layer maps each code to one `NFCReaderError` in
/// one exhaustive switch; the mapping it is expected to use is listed with each code (the session decides with the
/// operation in hand, so "read" and "write" columns differ where Core NFC differs):
///
/// | Code | read / query | write / writeLock |
/// |---|---|---|
/// | ``Code/rf`` with `linkLost` | 100 `readerTransceiveErrorTagConnectionLost` | 100 |
/// | ``Code/rf`` with `notActivated` | 104 `readerTransceiveErrorTagNotConnected` | 104 |
/// | ``Code/rf`` with `frameTooLong` | 105 `readerTransceiveErrorPacketTooLong` | 105 |
/// | ``Code/rf`` other (timeout, transmission, protocol, frontend) | 102 `readerTransceiveErrorTagResponseError` | 401 `ndefReaderSessionErrorTagUpdateFailure` |
/// | ``Code/commandRejected`` | 102 | 401 |
/// | ``Code/invalidResponse`` | 102 | 401 |
/// | ``Code/notFormatted`` | 102 ("Tag Not NDEF formatted") | 401 |
/// | ``Code/readOnly`` | — | 400 `ndefReaderSessionErrorTagNotWritable` |
/// | ``Code/capacityExceeded`` | — | 402 `ndefReaderSessionErrorTagSizeTooSmall` |
/// | ``Code/emptyMessage`` | — | 403 `ndefReaderSessionErrorZeroLengthMessage` |
/// | ``Code/tornStateDetected`` | 102 | 401 |
/// | ``Code/cannotMakeReadOnly`` | — | 401 |
/// | ``Code/unsupported`` | 1 `readerErrorUnsupportedFeature` | 1 |
///
/// An initialised tag holding an empty NDEF message is not an error here: `readMessage()` returns `[]` and the
/// session reports 403 `ndefReaderSessionErrorZeroLengthMessage`, as Core NFC does for `readNDEF`.
package struct TagError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The stable classification of a ``TagError``. Raw values are stable and appear in `--json` output.
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// The RF link failed underneath the procedure; ``TagError/rfError`` says how.
        case rf
        /// The tag answered with a NAK (``TagError/nak``) or an ISO 7816 error status word
        /// (``TagError/statusWord``).
        case commandRejected
        /// The tag answered, but not as the command requires (wrong length, ACK where data was due, a CC or file
        /// control TLV that breaks the mapping's rules).
        case invalidResponse
        /// The tag holds no NDEF data structure (no NDEF magic, no NDEF TLV, no NDEF application or file).
        case notFormatted
        /// The NDEF data is write-protected (CC write access, Type 4 write access byte).
        case readOnly
        /// The message does not fit in the NDEF area (after TLV or NLEN overhead).
        case capacityExceeded
        /// A write of zero bytes was asked for (Core NFC refuses an empty message).
        case emptyMessage
        /// The NDEF area is in a state no complete write leaves behind (a length past the area's end, a message whose
        /// records do not add up to its length): an interrupted write by a writer that was not tear-safe, or a
        /// corrupted tag.
        case tornStateDetected
        /// The tag offers no way to become read-only (a Type 4 card whose CC file refuses the update).
        case cannotMakeReadOnly
        /// The tag or the frontend cannot do this at all (raw frames unavailable, a tag beyond 1 KB needing
        /// SECTOR_SELECT, formatting a chip whose size is unknown).
        case unsupported
    }

    package var code: Code
    /// What went wrong, naming the command, page, offset or field.
    package var reason: String
    /// The RF failure, when ``code`` is ``Code/rf``.
    package var rfError: RFError?
    /// The 4-bit NAK code, when a Type 2 command was refused with a NAK.
    package var nak: UInt8?
    /// The ISO 7816-4 status word (SW1 SW2), when an APDU was refused.
    package var statusWord: UInt16?
    /// The ISO/IEC 15693 error code (§10.2.4), when a Type 5 request was answered with the error flag.
    package var iso15693Error: UInt8? = nil
    /// The FeliCa status flags SF1 SF2 (JIS X 6319-4 §8.6), when a Type 3 command was refused.
    package var feliCaStatus: [UInt8]? = nil
    /// Where in the procedures this error was raised (`File.swift:line`).
    package var location: String

    package init(
        _ code: Code, _ reason: String, rfError: RFError? = nil, nak: UInt8? = nil, statusWord: UInt16? = nil,
        file: StaticString = #fileID, line: UInt = #line
    ) {
        self.code = code
        self.reason = reason
        self.rfError = rfError
        self.nak = nak
        self.statusWord = statusWord
        self.location = "\(file):\(line)"
    }

    /// Wraps an RF failure, keeping its code and naming the command that met it.
    package static func rf(
        _ error: RFError, during command: String, file: StaticString = #fileID, line: UInt = #line
    ) -> TagError {
        TagError(.rf, "\(command): \(error)", rfError: error, file: file, line: line)
    }

    package var description: String {
        var s = "\(code.rawValue): \(reason)"
        if let nak { s += " (NAK \(nak))" }
        if let statusWord {
            let hex = String(statusWord, radix: 16, uppercase: true)
            s += " (SW \(String(repeating: "0", count: 4 - hex.count))\(hex))"
        }
        return s
    }
}
