/// The house shape of a failure: a stable ``code`` that programs and tests compare, and one ``message`` for people
/// that says what failed, where, and what to do (the text the CLI prints after `Error: `).
///
/// A module declares its codes as an enum and its error as this type over them, e.g.
/// `package typealias MQTTError = CodedError<MQTTErrorCode>`; each such error is a type of its own (`catch let e as
/// MQTTError` catches only those).
package struct CodedError<Code: Hashable & Sendable>: Error, Hashable, Sendable, CustomStringConvertible {
    package var code: Code
    package var message: String

    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { message }
}
