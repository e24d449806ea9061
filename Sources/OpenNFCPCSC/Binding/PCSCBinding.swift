/// A context handle handed out by the PC/SC service (`SCARDCONTEXT`).
package struct PCSCContextID: Hashable, Sendable {
    package var rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// A card connection handle handed out by the PC/SC service (`SCARDHANDLE`).
package struct PCSCCardID: Hashable, Sendable {
    package var rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
}

/// How a connection shares the card with other applications (`SCARD_SHARE_*`, PC/SC Part 5 §3.1.3).
package enum PCSCShareMode: UInt32, Sendable, Hashable {
    /// No other application may connect while this connection lasts (a reader session).
    case exclusive = 1
    /// Other applications may connect too; use transactions for atomic sequences.
    case shared = 2
    /// Talk to the reader itself with no card present (escape commands through `SCardControl`).
    case direct = 3
}

/// The transmission protocols of a connection (`SCARD_PROTOCOL_*`). Contactless cards always show as T=1.
package struct PCSCProtocols: OptionSet, Sendable, Hashable {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let t0 = PCSCProtocols(rawValue: 0x1)
    package static let t1 = PCSCProtocols(rawValue: 0x2)
    package static let raw = PCSCProtocols(rawValue: 0x4)
    /// T=0 or T=1, whichever the card offers: what to ask for when connecting to a contactless card.
    package static let any: PCSCProtocols = [.t0, .t1]
}

/// What happens to the card when a connection or transaction ends (`SCARD_*_CARD`).
package enum PCSCDisposition: UInt32, Sendable, Hashable {
    /// Leave the card powered and selected (the default; the next connection continues where this one ended).
    case leave = 0
    /// Warm reset: for a contactless card, the reader re-activates it (volatile tag state is lost).
    case reset = 1
    /// Power the card (the RF field) off.
    case unpower = 2
    case eject = 3
}

/// `dwCurrentState` / `dwEventState` bits of `SCARD_READERSTATE` (PC/SC Part 5 §3.1.11). The upper 16 bits of the
/// raw value are pcsc-lite's event counter; they are kept apart in ``PCSCReaderState/eventCount``.
package struct PCSCReaderStateFlags: OptionSet, Sendable, Hashable, CustomStringConvertible {
    package var rawValue: UInt32
    package init(rawValue: UInt32) { self.rawValue = rawValue }
    package static let unaware = PCSCReaderStateFlags([])
    package static let ignore = PCSCReaderStateFlags(rawValue: 0x0001)
    package static let changed = PCSCReaderStateFlags(rawValue: 0x0002)
    package static let unknown = PCSCReaderStateFlags(rawValue: 0x0004)
    package static let unavailable = PCSCReaderStateFlags(rawValue: 0x0008)
    package static let empty = PCSCReaderStateFlags(rawValue: 0x0010)
    package static let present = PCSCReaderStateFlags(rawValue: 0x0020)
    package static let atrMatch = PCSCReaderStateFlags(rawValue: 0x0040)
    package static let exclusive = PCSCReaderStateFlags(rawValue: 0x0080)
    package static let inUse = PCSCReaderStateFlags(rawValue: 0x0100)
    package static let mute = PCSCReaderStateFlags(rawValue: 0x0200)
    package static let unpowered = PCSCReaderStateFlags(rawValue: 0x0400)

    private static let names: [(PCSCReaderStateFlags, String)] = [
        (.ignore, "ignore"), (.changed, "changed"), (.unknown, "unknown"), (.unavailable, "unavailable"),
        (.empty, "empty"), (.present, "present"), (.atrMatch, "atr-match"), (.exclusive, "exclusive"),
        (.inUse, "in-use"), (.mute, "mute"), (.unpowered, "unpowered"),
    ]

    package var description: String {
        let parts = Self.names.filter { contains($0.0) }.map(\.1)
        return parts.isEmpty ? "unaware" : parts.joined(separator: ",")
    }
}

/// One entry of an `SCardGetStatusChange` call: the state the caller knows, and the state the service reports.
package struct PCSCReaderState: Sendable, Hashable {
    package var reader: String
    /// What the caller believes; `.unaware` asks for the current state at once.
    package var currentState: PCSCReaderStateFlags
    /// pcsc-lite's per-reader event counter the caller last saw (upper 16 bits of `dwCurrentState`).
    package var currentEventCount: UInt16
    /// What the service reports.
    package var eventState: PCSCReaderStateFlags
    /// pcsc-lite's event counter: it changes on every card insertion and removal, even a quick swap.
    package var eventCount: UInt16
    /// The ATR of the card in the reader, if any.
    package var atr: [UInt8]

    package init(
        reader: String, currentState: PCSCReaderStateFlags = .unaware, currentEventCount: UInt16 = 0,
        eventState: PCSCReaderStateFlags = .unaware, eventCount: UInt16 = 0, atr: [UInt8] = []
    ) {
        self.reader = reader
        self.currentState = currentState
        self.currentEventCount = currentEventCount
        self.eventState = eventState
        self.eventCount = eventCount
        self.atr = atr
    }

    /// Makes the reported state the known one, so the next wait returns only on a further change.
    package mutating func acknowledge() {
        currentState = eventState.subtracting(.changed)
        currentEventCount = eventCount
    }

    /// A card sits on the reader (powered or not).
    package var hasCard: Bool { eventState.contains(.present) }
}

/// `SCardStatus` of a connection.
package struct PCSCCardStatus: Sendable, Hashable {
    package var reader: String
    /// The raw `pdwState` value (pcsc-lite: `SCARD_ABSENT` 0x2, `SCARD_PRESENT` 0x4, `SCARD_POWERED` 0x10,
    /// `SCARD_NEGOTIABLE` 0x20, `SCARD_SPECIFIC` 0x40).
    package var state: UInt32
    package var activeProtocol: PCSCProtocols
    package var atr: [UInt8]

    package init(reader: String, state: UInt32, activeProtocol: PCSCProtocols, atr: [UInt8]) {
        self.reader = reader
        self.state = state
        self.activeProtocol = activeProtocol
        self.atr = atr
    }
}

/// The PC/SC API (PC/SC Part 5, as pcsc-lite and `PCSC.framework` implement it), one Swift method per `SCard*`
/// function, with Swift types in place of C buffers.
///
/// Three implementations: ``PCSCLiteBinding`` (Linux: `dlopen("libpcsclite.so.1")`, no headers needed at build time),
/// the `PCSC.framework` binding on macOS, and ``FakePCSCBinding`` (in process, for tests). Everything above this
/// protocol (``PCSCContext``, ``PCSCCard``, the profiles, ``PCSCFrontend``) is shared.
///
/// Every call either succeeds or throws a ``PCSCError`` that names the function, the `SCARD_*` status and what the
/// user can do about it.
package protocol PCSCBinding: AnyObject, Sendable {
    /// `SCardEstablishContext(SCARD_SCOPE_SYSTEM, …)`.
    func establishContext() throws(PCSCError) -> PCSCContextID
    /// `SCardReleaseContext`; errors are ignored (the context is gone either way).
    func releaseContext(_ context: PCSCContextID)
    /// `SCardListReaders` with all groups. An empty list (`SCARD_E_NO_READERS_AVAILABLE`) is not an error here.
    func listReaders(_ context: PCSCContextID) throws(PCSCError) -> [String]
    /// `SCardGetStatusChange`: waits at most `timeoutMilliseconds` (0 = just report) until a reader's state differs
    /// from `currentState`; updates `eventState`, `eventCount` and `atr` in place. Throws `.timeout` when nothing
    /// changed in time.
    func getStatusChange(
        _ context: PCSCContextID, timeoutMilliseconds: UInt32, states: inout [PCSCReaderState]
    ) throws(PCSCError)
    /// `SCardCancel`: makes a pending `getStatusChange` on this context return `.cancelled`. Safe from any thread.
    func cancel(_ context: PCSCContextID)
    /// `SCardConnect`; returns the connection and the protocol in use.
    func connect(
        _ context: PCSCContextID, reader: String, share: PCSCShareMode, protocols: PCSCProtocols
    ) throws(PCSCError) -> (card: PCSCCardID, activeProtocol: PCSCProtocols)
    /// `SCardReconnect`.
    func reconnect(
        _ card: PCSCCardID, share: PCSCShareMode, protocols: PCSCProtocols, initialization: PCSCDisposition
    ) throws(PCSCError) -> PCSCProtocols
    /// `SCardDisconnect`.
    func disconnect(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError)
    /// `SCardBeginTransaction`.
    func beginTransaction(_ card: PCSCCardID) throws(PCSCError)
    /// `SCardEndTransaction`.
    func endTransaction(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError)
    /// `SCardStatus`.
    func status(_ card: PCSCCardID) throws(PCSCError) -> PCSCCardStatus
    /// `SCardTransmit` with the PCI of `protocol`; returns the whole response (data and status word). An empty
    /// response is returned as is: ``PCSCCard`` turns it into "card removed".
    func transmit(_ card: PCSCCardID, protocol: PCSCProtocols, command: [UInt8]) throws(PCSCError) -> [UInt8]
    /// `SCardControl` with an already encoded control code (see ``controlCode(function:)``).
    func control(_ card: PCSCCardID, code: UInt32, command: [UInt8]) throws(PCSCError) -> [UInt8]
    /// `SCARD_CTL_CODE(function)` as this platform encodes it (pcsc-lite: `0x42000000 + function`; Windows and
    /// macOS: `0x00310000 | function << 2`).
    func controlCode(function: UInt32) -> UInt32
}

extension PCSCBinding {
    package func controlCode(function: UInt32) -> UInt32 { 0x4200_0000 &+ function }
}
