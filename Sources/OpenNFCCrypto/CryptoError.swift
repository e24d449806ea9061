/// A cryptography failure, with a stable ``code`` for programs and a sentence that says what went wrong and where.
package struct CryptoError: Error, Hashable, Sendable, CustomStringConvertible {
    package enum Code: String, Sendable, Hashable, CaseIterable {
        /// OpenSSL 3's `libcrypto` could not be loaded, or lacks a function or algorithm we need.
        case libraryUnavailable
        /// The key has the wrong length for the algorithm.
        case invalidKeyLength
        /// The data (or IV) is not a whole number of blocks, or the IV has the wrong length.
        case invalidDataLength
        /// libcrypto refused the operation.
        case operationFailed
    }

    package var code: Code
    /// What happened, fit for `Error: …`.
    package var detail: String

    package init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    package var description: String { detail }
}
