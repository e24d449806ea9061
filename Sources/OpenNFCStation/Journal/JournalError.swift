package import OpenNFCBytes

/// A journal that cannot do its job, with a sentence that says what to do.
package typealias JournalError = CodedError<JournalErrorCode>

/// The kinds of ``JournalError``.
package enum JournalErrorCode: String, Sendable, Hashable {
    /// The journal holds as many unacknowledged bytes as it may (``Journal/capacity``), or the disk is full.
    case full
    /// Another process holds the journal.
    case locked
    /// The file is not a journal of this format.
    case notAJournal
    /// A record is larger than a journal record may be.
    case recordTooLarge
    /// Reading or writing the file failed.
    case io
}
