internal import Foundation
internal import OpenNFCSystem
internal import OpenNFCTags

/// A contactless terminal in front of a ``VirtualPhone``, for testing a `CardSession` handler: it brings its field,
/// selects an AID, sends APDUs (one by one, from a script, or from a closure playing the terminal's logic), takes the
/// field away, and can tear an exchange (the field leaves before the app answers). Every exchange lands in
/// ``exchanges`` and in the phone's transcript.
///
/// ```swift
/// let phone = VirtualPhone(configuration: config)        // hostCardEmulation + AID prefixes
/// phone.launch { await LoyaltyCard().run() }              // the handler, written as Apple documents it
/// let terminal = VirtualTerminal(phone: phone)
/// terminal.bringField()
/// let answer = try terminal.select(aid: [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05])
/// #expect(answer.statusWord == 0x9000)
/// terminal.removeField()
/// ```
///
/// The phone answers only while the app emulates; a command it leaves unanswered throws ``Failure/noAnswer``.
public final class VirtualTerminal: @unchecked Sendable {
    /// An answer APDU: the data and the status word.
    public struct Response: Sendable, Hashable, CustomStringConvertible {
        /// Every byte of the answer, status word included.
        public var bytes: [UInt8]
        public var data: [UInt8] { Array(bytes.dropLast(2)) }
        public var sw1: UInt8 { bytes.count >= 2 ? bytes[bytes.count - 2] : 0 }
        public var sw2: UInt8 { bytes.last ?? 0 }
        public var statusWord: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }
        public var description: String { VirtualTerminal.hex(bytes) }
        public init(bytes: [UInt8]) { self.bytes = bytes }
    }

    /// One command and what came back.
    public struct Exchange: Sendable, Hashable, CustomStringConvertible {
        public var command: [UInt8]
        /// nil: no answer (the phone was mute, or the exchange was torn).
        public var response: Response?
        /// In the transcript grammar: `<command> -> <answer>` or `<command> -> TIMEOUT`.
        public var description: String {
            "\(VirtualTerminal.hex(command)) -> \(response.map { VirtualTerminal.hex($0.bytes) } ?? "TIMEOUT")"
        }
    }

    /// Why a command got no usable answer.
    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The terminal's field is off: bring it first.
        case noField
        /// The phone did not answer: it does not emulate, or the app kept the APDU unanswered (the terminal gives up,
        /// and the app's late `respond` throws `transmissionError`).
        case noAnswer
        /// A scripted step's answer differed from the expected one (line, expected, received).
        case unexpected(line: Int, expected: [UInt8], received: [UInt8])
        /// The script could not be read.
        case badScript(String)

        public var description: String {
            switch self {
            case .noField: "the terminal's field is off"
            case .noAnswer: "the phone did not answer"
            case .unexpected(let line, let e, let r):
                "line \(line): expected \(VirtualTerminal.hex(e)), received \(VirtualTerminal.hex(r))"
            case .badScript(let m): m
            }
        }
    }

    private let phone: VirtualPhone
    private let lock = NSLock()
    private var log: [Exchange] = []
    public private(set) var isFieldOn = false

    public init(phone: VirtualPhone) { self.phone = phone }

    /// The exchanges so far, oldest first.
    public var exchanges: [Exchange] { lock.withLock { log } }

    /// The exchanges as a transcript, one `<command> -> <answer>` line each.
    public var transcriptText: String { exchanges.map(\.description).joined(separator: "\n") }

    /// The terminal's field reaches the phone (`readerDetected`).
    public func bringField() {
        phone.settle()
        isFieldOn = true
        phone.system.terminalFieldOn()
        phone.settle()
    }

    /// The field goes away (`readerDeselected`).
    public func removeField() {
        phone.settle()
        isFieldOn = false
        phone.system.terminalFieldOff()
        phone.settle()
    }

    /// SELECT by DF name (ISO/IEC 7816-4 §11.2.2: `00 A4 04 00 Lc AID 00`).
    @discardableResult
    public func select(aid: [UInt8]) throws(Failure) -> Response {
        try send(ISO7816Select.byName(aid))
    }

    /// Sends a command APDU and waits (in virtual time: until the handler is idle) for the answer.
    @discardableResult
    public func send(_ command: [UInt8]) throws(Failure) -> Response {
        guard isFieldOn else { throw .noField }
        let box = ReplyBox()
        phone.settle()
        phone.system.terminalTransceive(command) { box.set($0) }
        phone.settle()
        guard let answer = box.get() else {
            phone.system.terminalGaveUp()
            phone.settle()
            record(Exchange(command: command, response: nil))
            throw .noAnswer
        }
        let response = answer.map { Response(bytes: $0) }
        record(Exchange(command: command, response: response))
        guard let response else { throw .noAnswer }
        return response
    }

    /// Sends a command and takes the field away before the app answers: the app's `respond` then throws
    /// `transmissionError`, and the stream gets `readerDeselected`.
    public func sendAndTear(_ command: [UInt8]) {
        guard isFieldOn else { return }
        phone.settle()
        phone.system.terminalTransceive(command) { _ in }
        isFieldOn = false
        phone.system.terminalFieldOff()
        phone.settle()
        record(Exchange(command: command, response: nil))
    }

    /// Plays a script (`<command hex> [-> <expected answer hex>]  # comment` per line) and returns the answers;
    /// stops at the first missing or unexpected answer.
    @discardableResult
    public func run(script: String) throws(Failure) -> [Response] {
        let parsed: TerminalScript
        do throws(TerminalScriptError) {
            parsed = try TerminalScript(parsing: script)
        } catch {
            throw .badScript(error.description)
        }
        var out: [Response] = []
        for step in parsed.steps {
            let r = try send(step.command)
            if let e = step.expected, e != r.bytes {
                throw .unexpected(line: step.line, expected: e, received: r.bytes)
            }
            out.append(r)
        }
        return out
    }

    /// Runs the terminal's logic: the closure sends commands through the terminal and decides on the answers.
    public func run<T>(_ logic: (VirtualTerminal) throws -> T) rethrows -> T { try logic(self) }

    private func record(_ e: Exchange) { lock.withLock { log.append(e) } }

    static func hex(_ b: [UInt8]) -> String {
        b.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()
    }
}

private final class ReplyBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: [UInt8]??
    func set(_ v: [UInt8]?) { lock.withLock { value = .some(v) } }
    func get() -> [UInt8]?? { lock.withLock { value } }
}
