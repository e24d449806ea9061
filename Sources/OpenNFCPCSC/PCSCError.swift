/// A PC/SC failure, with a stable ``code`` for programs and a message that says what to do for people.
///
/// The binding maps every `SCARD_*` status to a code with ``init(status:function:reader:)``; the layers above add
/// their own (an empty response that means the card left, a reader held by the pn533 kernel driver).
package struct PCSCError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// `libpcsclite.so.1` (or `PCSC.framework`) could not be loaded.
        case libraryUnavailable
        /// No PC/SC service answers: pcscd is not running (`SCARD_E_NO_SERVICE`) or it stopped.
        case serviceUnavailable
        /// The service runs but sees no reader at all.
        case noReaders
        /// A reader of that name is not (or no longer) known to the service.
        case unknownReader
        /// The reader was unplugged or its driver failed (`SCARD_E_READER_UNAVAILABLE`).
        case readerUnavailable
        /// The kernel's NFC driver (pn533_usb) holds the reader, so pcscd cannot use it.
        case readerHeldByKernelDriver
        /// No card sits on the reader.
        case noCard
        /// The card left the reader, possibly mid-command (including an empty "successful" response).
        case cardRemoved
        /// The card was reset by another connection; reconnect to continue.
        case cardReset
        /// The card sits on the reader but does not answer (`SCARD_W_UNRESPONSIVE_CARD`, `SCARD_E_NOT_TRANSACTED`).
        case cardUnresponsive
        /// Another application holds the card or reader exclusively.
        case sharingViolation
        /// A wait ran out of time.
        case timeout
        /// A wait was cancelled with `SCardCancel`.
        case cancelled
        /// The answer or command does not fit (buffer, APDU, ATR sizes).
        case invalidData
        /// Anything else the service reported; ``PCSCError/status`` has the raw code.
        case failure
    }

    package var code: Code
    /// The `SCARD_*` status the service returned, when one did.
    package var status: UInt32?
    /// The `SCard*` function or operation that failed.
    package var function: String
    /// What happened and what to do, in one sentence fit for `Error: …`.
    package var detail: String

    package init(_ code: Code, function: String, status: UInt32? = nil, detail: String) {
        self.code = code
        self.function = function
        self.status = status
        self.detail = detail
    }

    /// Maps an `SCARD_*` status of `function` to a code and an actionable message.
    package init(status: UInt32, function: String, reader: String? = nil) {
        let on = reader.map { " on reader '\($0)'" } ?? ""
        let name = PCSCStatus.name(status)
        let (code, detail): (Code, String)
        switch status {
        case PCSCStatus.noService, PCSCStatus.serviceStopped, PCSCStatus.commError, PCSCStatus.shutdown:
            code = .serviceUnavailable
            detail =
                "the PC/SC service (pcscd) is not running (\(name)); start it, e.g. `sudo systemctl start pcscd`, "
                + "or `scripts/pcscd up` in this repository"
        case PCSCStatus.noReadersAvailable:
            code = .noReaders
            detail = "pcscd sees no reader (\(name)); plug a reader in, or start a virtual one (vsmartcard vpcd)"
        case PCSCStatus.unknownReader:
            code = .unknownReader
            detail = "no reader by that name\(on) (\(name)); `opennfc readers` lists the readers pcscd knows"
        case PCSCStatus.readerUnavailable:
            code = .readerUnavailable
            detail = "the reader is unavailable\(on) (\(name)): it was unplugged or its driver failed; plug it back in"
        case PCSCStatus.noSmartcard:
            code = .noCard
            detail = "no tag on the reader\(on) (\(name)); hold a tag against it"
        case PCSCStatus.removedCard:
            code = .cardRemoved
            detail = "the tag left the reader\(on) (\(name)); hold it still and try again"
        case PCSCStatus.resetCard:
            code = .cardReset
            detail = "another application reset the tag\(on) (\(name)); reconnect and try again"
        case PCSCStatus.unresponsiveCard, PCSCStatus.notTransacted, PCSCStatus.unpoweredCard:
            code = .cardUnresponsive
            detail = "the tag does not answer\(on) (\(name)); it may have left the field — present it again"
        case PCSCStatus.sharingViolation:
            code = .sharingViolation
            detail =
                "another application holds the tag or reader exclusively\(on) (\(name)); close it (or stop the "
                + "program using the reader) and try again"
        case PCSCStatus.timeout:
            code = .timeout
            detail = "nothing changed in time\(on) (\(name))"
        case PCSCStatus.cancelled, PCSCStatus.systemCancelled:
            code = .cancelled
            detail = "the wait was cancelled (\(name))"
        case PCSCStatus.insufficientBuffer, PCSCStatus.invalidParameter, PCSCStatus.invalidValue:
            code = .invalidData
            detail = "\(function) rejected the data size or a parameter (\(name))"
        default:
            code = .failure
            detail = "\(function) failed\(on) (\(name))"
        }
        self.init(code, function: function, status: status, detail: detail)
    }

    package var description: String { detail }
}
