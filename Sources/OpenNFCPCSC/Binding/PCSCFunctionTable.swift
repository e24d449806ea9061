/// The `SCard*` entry points of one PC/SC implementation (PC/SC Part 5 §3), with the platform's integer widths and
/// structure layouts hidden: handles travel as `UInt64`, `DWORD` and `LONG` values as `UInt32`. pcsc-lite (through
/// `dlopen`, ``PCSCLiteBinding``) and `PCSC.framework` (``PCSCFrameworkBinding``) each fill one; the single
/// ``PCSCTableBinding`` above it turns them into the ``PCSCBinding`` API, so buffer sizing, retries, status checks
/// and the decoding of reader states exist once.
package struct PCSCFunctionTable: Sendable {
    /// One `SCARD_READERSTATE` as the table exchanges it: the raw `dwCurrentState` going in, the raw `dwEventState`
    /// and the ATR coming back.
    package struct ReaderState: Sendable {
        package var reader: String
        package var currentState: UInt32
        package var eventState: UInt32 = 0
        package var atr: [UInt8] = []

        package init(reader: String, currentState: UInt32) {
            self.reader = reader
            self.currentState = currentState
        }
    }

    /// `SCardEstablishContext(scope, nil, nil, &context)`.
    package var establishContext: @Sendable (_ scope: UInt32, _ context: inout UInt64) -> UInt32
    /// `SCardReleaseContext`.
    package var releaseContext: @Sendable (_ context: UInt64) -> UInt32
    /// `SCardListReaders(context, nil, buffer, &size)`; `buffer` nil asks for the size.
    package var listReaders:
        @Sendable (_ context: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ size: inout UInt32) -> UInt32
    /// `SCardGetStatusChange` over the given states (event state and ATR filled in).
    package var getStatusChange:
        @Sendable (_ context: UInt64, _ timeoutMilliseconds: UInt32, _ states: inout [ReaderState]) -> UInt32
    /// `SCardCancel`.
    package var cancel: @Sendable (_ context: UInt64) -> UInt32
    /// `SCardConnect`.
    package var connect:
        @Sendable (
            _ context: UInt64, _ reader: String, _ share: UInt32, _ protocols: UInt32, _ card: inout UInt64,
            _ active: inout UInt32
        ) -> UInt32
    /// `SCardReconnect`.
    package var reconnect:
        @Sendable (
            _ card: UInt64, _ share: UInt32, _ protocols: UInt32, _ initialization: UInt32, _ active: inout UInt32
        ) -> UInt32
    /// `SCardDisconnect`.
    package var disconnect: @Sendable (_ card: UInt64, _ disposition: UInt32) -> UInt32
    /// `SCardBeginTransaction`.
    package var beginTransaction: @Sendable (_ card: UInt64) -> UInt32
    /// `SCardEndTransaction`.
    package var endTransaction: @Sendable (_ card: UInt64, _ disposition: UInt32) -> UInt32
    /// `SCardStatus` into the given buffers; the lengths go in as capacities and come back as used.
    package var status:
        @Sendable (
            _ card: UInt64, _ name: inout [CChar], _ nameLength: inout UInt32, _ state: inout UInt32,
            _ protocol: inout UInt32, _ atr: inout [UInt8], _ atrLength: inout UInt32
        ) -> UInt32
    /// `SCardTransmit` with the PCI of `protocol`; `length` goes in as the capacity of `response`.
    package var transmit:
        @Sendable (
            _ card: UInt64, _ protocol: PCSCProtocols, _ command: [UInt8], _ response: inout [UInt8],
            _ length: inout UInt32
        ) -> UInt32
    /// `SCardControl` (Apple's `SCardControl132`); `returned` comes back as the bytes used.
    package var control:
        @Sendable (
            _ card: UInt64, _ code: UInt32, _ command: [UInt8], _ response: inout [UInt8], _ returned: inout UInt32
        ) -> UInt32
    /// `SCARD_CTL_CODE(function)` as the platform encodes it.
    package var controlCode: @Sendable (_ function: UInt32) -> UInt32

    package init(
        establishContext: @escaping @Sendable (_ scope: UInt32, _ context: inout UInt64) -> UInt32,
        releaseContext: @escaping @Sendable (_ context: UInt64) -> UInt32,
        listReaders:
            @escaping @Sendable (_ context: UInt64, _ buffer: UnsafeMutablePointer<CChar>?, _ size: inout UInt32) ->
            UInt32,
        getStatusChange:
            @escaping @Sendable (_ context: UInt64, _ timeoutMilliseconds: UInt32, _ states: inout [ReaderState]) ->
            UInt32,
        cancel: @escaping @Sendable (_ context: UInt64) -> UInt32,
        connect:
            @escaping @Sendable (
                _ context: UInt64, _ reader: String, _ share: UInt32, _ protocols: UInt32, _ card: inout UInt64,
                _ active: inout UInt32
            ) -> UInt32,
        reconnect:
            @escaping @Sendable (
                _ card: UInt64, _ share: UInt32, _ protocols: UInt32, _ initialization: UInt32, _ active: inout UInt32
            ) -> UInt32,
        disconnect: @escaping @Sendable (_ card: UInt64, _ disposition: UInt32) -> UInt32,
        beginTransaction: @escaping @Sendable (_ card: UInt64) -> UInt32,
        endTransaction: @escaping @Sendable (_ card: UInt64, _ disposition: UInt32) -> UInt32,
        status:
            @escaping @Sendable (
                _ card: UInt64, _ name: inout [CChar], _ nameLength: inout UInt32, _ state: inout UInt32,
                _ protocol: inout UInt32, _ atr: inout [UInt8], _ atrLength: inout UInt32
            ) -> UInt32,
        transmit:
            @escaping @Sendable (
                _ card: UInt64, _ protocol: PCSCProtocols, _ command: [UInt8], _ response: inout [UInt8],
                _ length: inout UInt32
            ) -> UInt32,
        control:
            @escaping @Sendable (
                _ card: UInt64, _ code: UInt32, _ command: [UInt8], _ response: inout [UInt8], _ returned: inout UInt32
            ) -> UInt32,
        controlCode: @escaping @Sendable (_ function: UInt32) -> UInt32 = { 0x4200_0000 &+ $0 }
    ) {
        self.establishContext = establishContext
        self.releaseContext = releaseContext
        self.listReaders = listReaders
        self.getStatusChange = getStatusChange
        self.cancel = cancel
        self.connect = connect
        self.reconnect = reconnect
        self.disconnect = disconnect
        self.beginTransaction = beginTransaction
        self.endTransaction = endTransaction
        self.status = status
        self.transmit = transmit
        self.control = control
        self.controlCode = controlCode
    }
}

/// The one ``PCSCBinding`` over a ``PCSCFunctionTable``: what both real bindings share.
///
/// | Call | Done here, once |
/// |---|---|
/// | every call | `SCARD_S_SUCCESS` check, the failure as a ``PCSCError`` naming the function and reader |
/// | `SCardListReaders` | two calls (size, then data), retried when a reader is plugged in between; no readers is an empty list |
/// | `SCardGetStatusChange` | the pcsc-lite event counter packed in and out of the upper 16 bits; the ATR cut to its length |
/// | `SCardStatus` | the reader name from the returned multi-string; the ATR cut to its length |
/// | `SCardTransmit` | a 258-byte buffer for short APDUs, 65 538 for extended ones, and one retry with the largest on `SCARD_E_INSUFFICIENT_BUFFER` |
/// | `SCardControl` | a 1 024-byte answer buffer |
package class PCSCTableBinding: PCSCBinding, @unchecked Sendable {
    let table: PCSCFunctionTable

    /// A binding over `table` (the platform bindings' initialisers build one).
    package init(table: PCSCFunctionTable) { self.table = table }

    @inline(__always)
    private func check(_ status: UInt32, _ function: String, reader: String? = nil) throws(PCSCError) {
        if status != PCSCStatus.success { throw PCSCError(status: status, function: function, reader: reader) }
    }

    package func controlCode(function: UInt32) -> UInt32 { table.controlCode(function) }

    package func establishContext() throws(PCSCError) -> PCSCContextID {
        var h: UInt64 = 0
        try check(table.establishContext(2 /* SCARD_SCOPE_SYSTEM */, &h), "SCardEstablishContext")
        return PCSCContextID(rawValue: h)
    }

    package func releaseContext(_ context: PCSCContextID) { _ = table.releaseContext(context.rawValue) }

    package func listReaders(_ context: PCSCContextID) throws(PCSCError) -> [String] {
        // Two calls: size, then data; a reader plugged in between makes the second report a short buffer, so
        // retry a few times.
        for _ in 0..<4 {
            var size: UInt32 = 0
            var rv = table.listReaders(context.rawValue, nil, &size)
            if rv == PCSCStatus.noReadersAvailable { return [] }
            try check(rv, "SCardListReaders")
            var buffer = [CChar](repeating: 0, count: Int(size) + 1)
            rv = buffer.withUnsafeMutableBufferPointer { table.listReaders(context.rawValue, $0.baseAddress, &size) }
            if rv == PCSCStatus.noReadersAvailable { return [] }
            if rv == PCSCStatus.insufficientBuffer { continue }
            try check(rv, "SCardListReaders")
            return Self.splitMultiString(buffer.prefix(Int(min(size, UInt32(buffer.count)))))
        }
        throw PCSCError(
            .failure, function: "SCardListReaders", detail: "the reader list kept changing while being read")
    }

    /// The strings of a PC/SC multi-string (`a\0b\0\0`).
    static func splitMultiString(_ chars: ArraySlice<CChar>) -> [String] {
        chars.split(separator: 0, omittingEmptySubsequences: true).map {
            String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    package func getStatusChange(
        _ context: PCSCContextID, timeoutMilliseconds: UInt32, states: inout [PCSCReaderState]
    ) throws(PCSCError) {
        guard !states.isEmpty else { return }
        var raw = states.map {
            PCSCFunctionTable.ReaderState(
                reader: $0.reader,
                currentState: ($0.currentState.rawValue & 0xFFFF) | UInt32($0.currentEventCount) << 16)
        }
        try check(table.getStatusChange(context.rawValue, timeoutMilliseconds, &raw), "SCardGetStatusChange")
        for i in states.indices {
            let e = raw[i].eventState
            states[i].eventState = PCSCReaderStateFlags(rawValue: e & 0xFFFF)
            states[i].eventCount = UInt16(truncatingIfNeeded: e >> 16)
            states[i].atr = Array(raw[i].atr.prefix(33))
        }
    }

    package func cancel(_ context: PCSCContextID) { _ = table.cancel(context.rawValue) }

    package func connect(
        _ context: PCSCContextID, reader: String, share: PCSCShareMode, protocols: PCSCProtocols
    ) throws(PCSCError) -> (card: PCSCCardID, activeProtocol: PCSCProtocols) {
        var h: UInt64 = 0
        var active: UInt32 = 0
        let rv = table.connect(context.rawValue, reader, share.rawValue, protocols.rawValue, &h, &active)
        try check(rv, "SCardConnect", reader: reader)
        return (PCSCCardID(rawValue: h), PCSCProtocols(rawValue: active))
    }

    package func reconnect(
        _ card: PCSCCardID, share: PCSCShareMode, protocols: PCSCProtocols, initialization: PCSCDisposition
    ) throws(PCSCError) -> PCSCProtocols {
        var active: UInt32 = 0
        let rv = table.reconnect(card.rawValue, share.rawValue, protocols.rawValue, initialization.rawValue, &active)
        try check(rv, "SCardReconnect")
        return PCSCProtocols(rawValue: active)
    }

    package func disconnect(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
        try check(table.disconnect(card.rawValue, disposition.rawValue), "SCardDisconnect")
    }

    package func beginTransaction(_ card: PCSCCardID) throws(PCSCError) {
        try check(table.beginTransaction(card.rawValue), "SCardBeginTransaction")
    }

    package func endTransaction(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
        try check(table.endTransaction(card.rawValue, disposition.rawValue), "SCardEndTransaction")
    }

    package func status(_ card: PCSCCardID) throws(PCSCError) -> PCSCCardStatus {
        var name = [CChar](repeating: 0, count: 256)
        var nameLength = UInt32(name.count)
        var state: UInt32 = 0
        var proto: UInt32 = 0
        var atr = [UInt8](repeating: 0, count: 33)
        var atrLength = UInt32(atr.count)
        let rv = table.status(card.rawValue, &name, &nameLength, &state, &proto, &atr, &atrLength)
        try check(rv, "SCardStatus")
        return PCSCCardStatus(
            reader: Self.splitMultiString(name.prefix(Int(min(nameLength, UInt32(name.count))))).first ?? "",
            state: state, activeProtocol: PCSCProtocols(rawValue: proto),
            atr: Array(atr.prefix(Int(min(atrLength, 33)))))
    }

    package func transmit(_ card: PCSCCardID, protocol: PCSCProtocols, command: [UInt8]) throws(PCSCError) -> [UInt8] {
        // Short APDUs answer at most 256 + 2 bytes; extended ones up to 65536 + 2.
        var response = [UInt8](repeating: 0, count: command.count > 261 ? 65_538 : 258)
        var length = UInt32(response.count)
        var rv = table.transmit(card.rawValue, `protocol`, command, &response, &length)
        if rv == PCSCStatus.insufficientBuffer, response.count < 65_538 {
            // An extended-length answer to a short command: retry once with the largest buffer.
            response = [UInt8](repeating: 0, count: 65_538)
            length = UInt32(response.count)
            rv = table.transmit(card.rawValue, `protocol`, command, &response, &length)
        }
        try check(rv, "SCardTransmit")
        return Array(response.prefix(Int(min(length, UInt32(response.count)))))
    }

    package func control(_ card: PCSCCardID, code: UInt32, command: [UInt8]) throws(PCSCError) -> [UInt8] {
        var response = [UInt8](repeating: 0, count: 1024)
        var returned: UInt32 = 0
        try check(table.control(card.rawValue, code, command, &response, &returned), "SCardControl")
        return Array(response.prefix(Int(min(returned, 1024))))
    }
}
