internal import OpenNFCBytes

/// A response APDU split into data and status word (ISO 7816-4 §5.1.3).
package struct APDUResponse: Sendable, Hashable, CustomStringConvertible {
    package var data: [UInt8]
    package var sw1: UInt8
    package var sw2: UInt8

    package init(data: [UInt8], sw1: UInt8, sw2: UInt8) {
        self.data = data
        self.sw1 = sw1
        self.sw2 = sw2
    }

    /// Splits a raw response; nil when it is shorter than a status word.
    package init?(_ raw: [UInt8]) {
        guard raw.count >= 2 else { return nil }
        self.init(data: Array(raw.dropLast(2)), sw1: raw[raw.count - 2], sw2: raw[raw.count - 1])
    }

    package var sw: UInt16 { UInt16(sw1) << 8 | UInt16(sw2) }
    /// `90 00`.
    package var isSuccess: Bool { sw == 0x9000 }
    package var bytes: [UInt8] { data + [sw1, sw2] }

    package var description: String {
        let s = Hex.encode([sw1, sw2])
        return data.isEmpty ? s : "\(data.hexString) \(s)"
    }
}

/// A connection to the card on one reader.
///
/// Not thread-safe: one thread drives a connection (as one serial executor drives an ``OpenNFCRF/RFFrontend``).
package final class PCSCCard: @unchecked Sendable {
    package let context: PCSCContext
    package let id: PCSCCardID
    package let reader: String
    package private(set) var activeProtocol: PCSCProtocols
    /// The ATR reported when the connection was made.
    package private(set) var atr: [UInt8]
    package private(set) var isConnected = true
    /// Called with every command and response (for `--trace`); responses are nil when the exchange failed.
    package var observer: (@Sendable (_ command: [UInt8], _ response: [UInt8]?) -> Void)?

    init(context: PCSCContext, id: PCSCCardID, reader: String, activeProtocol: PCSCProtocols, atr: [UInt8]) {
        self.context = context
        self.id = id
        self.reader = reader
        self.activeProtocol = activeProtocol
        self.atr = atr
    }

    deinit {
        if isConnected { try? context.binding.disconnect(id, disposition: .leave) }
    }

    /// Sends one command APDU and returns the whole response (data and status word).
    ///
    /// An empty response with `SCARD_S_SUCCESS` is how pcscd reports a card that left mid-command (vpcd: the card's
    /// socket closed); it throws ``PCSCError/Code/cardRemoved``, as do responses shorter than a status word.
    package func transmitRaw(_ command: [UInt8]) throws(PCSCError) -> [UInt8] {
        guard isConnected else {
            throw PCSCError(
                .cardRemoved, function: "SCardTransmit", detail: "the connection to '\(reader)' is closed")
        }
        let response: [UInt8]
        do {
            response = try context.binding.transmit(id, protocol: activeProtocol, command: command)
        } catch {
            observer?(command, nil)
            throw error
        }
        observer?(command, response)
        if response.count < 2 {
            throw PCSCError(
                .cardRemoved, function: "SCardTransmit", status: PCSCStatus.success,
                detail:
                    "the tag left the reader '\(reader)' during the command (\(response.isEmpty ? "empty" : "1-byte") "
                    + "response); present it again and retry")
        }
        return response
    }

    /// Sends one command APDU and returns its response split into data and status word.
    package func transmit(_ command: [UInt8]) throws(PCSCError) -> APDUResponse {
        APDUResponse(try transmitRaw(command))!
    }

    /// `SCardControl` with the platform encoding of `SCARD_CTL_CODE(function)`.
    package func control(function: UInt32, _ command: [UInt8]) throws(PCSCError) -> [UInt8] {
        try context.binding.control(id, code: context.binding.controlCode(function: function), command: command)
    }

    /// The connection's current state and ATR.
    package func status() throws(PCSCError) -> PCSCCardStatus { try context.binding.status(id) }

    /// Re-activates the card (`SCardReconnect` with a warm reset), clearing its volatile state.
    package func reset(share: PCSCShareMode = .exclusive) throws(PCSCError) {
        activeProtocol = try context.binding.reconnect(id, share: share, protocols: .any, initialization: .reset)
        atr = try context.binding.status(id).atr
    }

    package func beginTransaction() throws(PCSCError) { try context.binding.beginTransaction(id) }
    package func endTransaction(_ disposition: PCSCDisposition = .leave) throws(PCSCError) {
        try context.binding.endTransaction(id, disposition: disposition)
    }

    /// Ends the connection; further transmits fail. Errors are swallowed: a card that already left is disconnected.
    package func disconnect(_ disposition: PCSCDisposition = .leave) {
        guard isConnected else { return }
        isConnected = false
        try? context.binding.disconnect(id, disposition: disposition)
    }
}
