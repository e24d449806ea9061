#if !canImport(PCSC) && canImport(Glibc)
    internal import Glibc
    internal import Synchronization

    // pcsc-lite on 64-bit Linux: DWORD is `unsigned long` and LONG is `long` (8 bytes each), SCARDCONTEXT and
    // SCARDHANDLE are `long`; SCARD_READERSTATE is 80 bytes (73 + padding); SCARD_IO_REQUEST is 16 bytes
    // (pcsc-lite's PCSC/pcsclite.h and winscard.h, measured with C sizeof and Swift MemoryLayout).
    typealias DWORD = UInt
    typealias LONG = Int

    /// Mirror of pcsc-lite's `SCARD_READERSTATE` (not packed on Linux).
    struct CReaderState {
        var szReader: UnsafePointer<CChar>?
        var pvUserData: UnsafeMutableRawPointer?
        var dwCurrentState: DWORD
        var dwEventState: DWORD
        var cbAtr: DWORD
        var rgbAtr:
            (
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8,
                UInt8, UInt8, UInt8
            )
    }

    typealias FnEstablish =
        @convention(c) (DWORD, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeMutablePointer<LONG>?)
        -> LONG
    typealias FnRelease = @convention(c) (LONG) -> LONG
    typealias FnList =
        @convention(c) (LONG, UnsafePointer<CChar>?, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?)
        -> LONG
    typealias FnStatusChange = @convention(c) (LONG, DWORD, UnsafeMutableRawPointer?, DWORD) -> LONG
    typealias FnCancel = @convention(c) (LONG) -> LONG
    typealias FnConnect =
        @convention(c) (
            LONG, UnsafePointer<CChar>?, DWORD, DWORD, UnsafeMutablePointer<LONG>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias FnReconnect = @convention(c) (LONG, DWORD, DWORD, DWORD, UnsafeMutablePointer<DWORD>?) -> LONG
    typealias FnDisconnect = @convention(c) (LONG, DWORD) -> LONG
    typealias FnBegin = @convention(c) (LONG) -> LONG
    typealias FnEnd = @convention(c) (LONG, DWORD) -> LONG
    typealias FnStatus =
        @convention(c) (
            LONG, UnsafeMutablePointer<CChar>?, UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<DWORD>?,
            UnsafeMutablePointer<DWORD>?, UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias FnTransmit =
        @convention(c) (
            LONG, UnsafeRawPointer?, UnsafePointer<UInt8>?, DWORD, UnsafeMutableRawPointer?,
            UnsafeMutablePointer<UInt8>?, UnsafeMutablePointer<DWORD>?
        ) -> LONG
    typealias FnControl =
        @convention(c) (
            LONG, DWORD, UnsafeRawPointer?, DWORD, UnsafeMutableRawPointer?, DWORD, UnsafeMutablePointer<DWORD>?
        ) -> LONG

    /// The PC/SC binding for Linux: pcsc-lite's client library loaded at run time with
    /// `dlopen("libpcsclite.so.1")`, so the package builds and tests without the PC/SC headers, and a missing library
    /// is a clear run-time error (``PCSCError/Code/libraryUnavailable``) instead of a link failure.
    ///
    /// | Function | Used for |
    /// |---|---|
    /// | `SCardEstablishContext` / `SCardReleaseContext` | one context per ``PCSCContext`` |
    /// | `SCardListReaders` | reader discovery |
    /// | `SCardGetStatusChange` / `SCardCancel` | card arrival and removal, with a timeout; cancellable |
    /// | `SCardConnect` / `SCardReconnect` / `SCardDisconnect` | connections (exclusive for a reader session) |
    /// | `SCardBeginTransaction` / `SCardEndTransaction` | atomic sequences on shared connections |
    /// | `SCardStatus` | ATR and state of a connection |
    /// | `SCardTransmit` | APDUs (T=0 / T=1 PCI from `g_rgSCardT0Pci` / `g_rgSCardT1Pci`) |
    /// | `SCardControl` | reader escape commands (ACR1252U `E0 …`) |
    ///
    /// The library handle stays open for the life of the process (as pyscard does); the object is immutable and
    /// safe to share between threads — pcsc-lite itself serialises calls per context.
    public final class PCSCLiteBinding: PCSCBinding, @unchecked Sendable {
        private let establish: FnEstablish
        private let release: FnRelease
        private let list: FnList
        private let statusChange: FnStatusChange
        private let cancelFn: FnCancel
        private let connectFn: FnConnect
        private let reconnectFn: FnReconnect
        private let disconnectFn: FnDisconnect
        private let begin: FnBegin
        private let end: FnEnd
        private let statusFn: FnStatus
        private let transmitFn: FnTransmit
        private let controlFn: FnControl
        private let t0Pci: UnsafeRawPointer
        private let t1Pci: UnsafeRawPointer
        private let rawPci: UnsafeRawPointer

        private static let shared = Mutex<PCSCLiteBinding?>(nil)

        /// The process-wide binding, loading the library on first use.
        public static func load(path: String = "libpcsclite.so.1") throws(PCSCError) -> PCSCLiteBinding {
            let result: Result<PCSCLiteBinding, PCSCError> = shared.withLock { cached in
                if let cached { return .success(cached) }
                do {
                    let b = try PCSCLiteBinding(path: path)
                    cached = b
                    return .success(b)
                } catch let error as PCSCError {
                    return .failure(error)
                } catch {
                    return .failure(PCSCError(.libraryUnavailable, function: "dlopen", detail: "\(error)"))
                }
            }
            return try result.get()
        }

        private init(path: String) throws(PCSCError) {
            guard let lib = dlopen(path, RTLD_NOW) else {
                let why = dlerror().map { String(cString: $0) } ?? "unknown reason"
                throw PCSCError(
                    .libraryUnavailable, function: "dlopen",
                    detail:
                        "cannot load \(path) (\(why)); install pcsc-lite's client library "
                        + "(Debian/Ubuntu: `apt-get install libpcsclite1 pcscd`)")
            }
            func sym<T>(_ name: String, as type: T.Type) throws(PCSCError) -> T {
                guard let p = dlsym(lib, name) else {
                    throw PCSCError(
                        .libraryUnavailable, function: "dlsym",
                        detail: "\(path) has no symbol \(name); it is not pcsc-lite, or too old a version")
                }
                return unsafeBitCast(p, to: type)
            }
            establish = try sym("SCardEstablishContext", as: FnEstablish.self)
            release = try sym("SCardReleaseContext", as: FnRelease.self)
            list = try sym("SCardListReaders", as: FnList.self)
            statusChange = try sym("SCardGetStatusChange", as: FnStatusChange.self)
            cancelFn = try sym("SCardCancel", as: FnCancel.self)
            connectFn = try sym("SCardConnect", as: FnConnect.self)
            reconnectFn = try sym("SCardReconnect", as: FnReconnect.self)
            disconnectFn = try sym("SCardDisconnect", as: FnDisconnect.self)
            begin = try sym("SCardBeginTransaction", as: FnBegin.self)
            end = try sym("SCardEndTransaction", as: FnEnd.self)
            statusFn = try sym("SCardStatus", as: FnStatus.self)
            transmitFn = try sym("SCardTransmit", as: FnTransmit.self)
            controlFn = try sym("SCardControl", as: FnControl.self)
            guard let t0 = dlsym(lib, "g_rgSCardT0Pci"), let t1 = dlsym(lib, "g_rgSCardT1Pci"),
                let raw = dlsym(lib, "g_rgSCardRawPci")
            else {
                throw PCSCError(
                    .libraryUnavailable, function: "dlsym", detail: "\(path) has no g_rgSCardT0Pci/T1Pci/RawPci")
            }
            t0Pci = UnsafeRawPointer(t0)
            t1Pci = UnsafeRawPointer(t1)
            rawPci = UnsafeRawPointer(raw)
        }

        @inline(__always)
        private func check(_ rv: LONG, _ function: String, reader: String? = nil) throws(PCSCError) {
            let status = UInt32(truncatingIfNeeded: rv)
            if status != PCSCStatus.success { throw PCSCError(status: status, function: function, reader: reader) }
        }

        private func ctx(_ c: PCSCContextID) -> LONG { LONG(truncatingIfNeeded: c.rawValue) }
        private func card(_ c: PCSCCardID) -> LONG { LONG(truncatingIfNeeded: c.rawValue) }

        public func establishContext() throws(PCSCError) -> PCSCContextID {
            var h: LONG = 0
            try check(establish(2 /* SCARD_SCOPE_SYSTEM */, nil, nil, &h), "SCardEstablishContext")
            return PCSCContextID(rawValue: UInt64(truncatingIfNeeded: h))
        }

        public func releaseContext(_ context: PCSCContextID) { _ = release(ctx(context)) }

        public func listReaders(_ context: PCSCContextID) throws(PCSCError) -> [String] {
            // Two calls: size, then data; a reader plugged in between makes the second report a short buffer, so
            // retry a few times.
            for _ in 0..<4 {
                var size: DWORD = 0
                var rv = list(ctx(context), nil, nil, &size)
                if UInt32(truncatingIfNeeded: rv) == PCSCStatus.noReadersAvailable { return [] }
                try check(rv, "SCardListReaders")
                var buffer = [CChar](repeating: 0, count: Int(size) + 1)
                rv = list(ctx(context), nil, &buffer, &size)
                let status = UInt32(truncatingIfNeeded: rv)
                if status == PCSCStatus.noReadersAvailable { return [] }
                if status == PCSCStatus.insufficientBuffer { continue }
                try check(rv, "SCardListReaders")
                return Self.splitMultiString(buffer.prefix(Int(size)))
            }
            throw PCSCError(
                .failure, function: "SCardListReaders", detail: "the reader list kept changing while being read")
        }

        static func splitMultiString(_ chars: ArraySlice<CChar>) -> [String] {
            chars.split(separator: 0, omittingEmptySubsequences: true).map {
                String(decoding: $0.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }

        public func getStatusChange(
            _ context: PCSCContextID, timeoutMilliseconds: UInt32, states: inout [PCSCReaderState]
        ) throws(PCSCError) {
            guard !states.isEmpty else { return }
            // The reader names must stay valid C strings for the duration of the call.
            let names: [UnsafeMutablePointer<CChar>] = states.map { strdup($0.reader)! }
            defer { names.forEach { free($0) } }
            var c: [CReaderState] = states.enumerated().map { i, s in
                var r = CReaderState(
                    szReader: UnsafePointer(names[i]), pvUserData: nil,
                    dwCurrentState: DWORD(s.currentState.rawValue & 0xFFFF) | DWORD(s.currentEventCount) << 16,
                    dwEventState: 0, cbAtr: 0,
                    rgbAtr: (
                        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
                        0
                    ))
                r.cbAtr = 0
                return r
            }
            let count = DWORD(c.count)
            let rv = c.withUnsafeMutableBytes {
                statusChange(ctx(context), DWORD(timeoutMilliseconds), $0.baseAddress, count)
            }
            try check(rv, "SCardGetStatusChange")
            for i in states.indices {
                let e = c[i].dwEventState
                states[i].eventState = PCSCReaderStateFlags(rawValue: UInt32(truncatingIfNeeded: e & 0xFFFF))
                states[i].eventCount = UInt16(truncatingIfNeeded: e >> 16)
                let n = min(Int(c[i].cbAtr), 33)
                states[i].atr = withUnsafeBytes(of: c[i].rgbAtr) { Array($0.prefix(n)) }
            }
        }

        public func cancel(_ context: PCSCContextID) { _ = cancelFn(ctx(context)) }

        public func connect(
            _ context: PCSCContextID, reader: String, share: PCSCShareMode, protocols: PCSCProtocols
        ) throws(PCSCError) -> (card: PCSCCardID, activeProtocol: PCSCProtocols) {
            var h: LONG = 0
            var active: DWORD = 0
            let rv = connectFn(ctx(context), reader, DWORD(share.rawValue), DWORD(protocols.rawValue), &h, &active)
            try check(rv, "SCardConnect", reader: reader)
            return (
                PCSCCardID(rawValue: UInt64(truncatingIfNeeded: h)),
                PCSCProtocols(rawValue: UInt32(truncatingIfNeeded: active))
            )
        }

        public func reconnect(
            _ card: PCSCCardID, share: PCSCShareMode, protocols: PCSCProtocols, initialization: PCSCDisposition
        ) throws(PCSCError) -> PCSCProtocols {
            var active: DWORD = 0
            let rv = reconnectFn(
                self.card(card), DWORD(share.rawValue), DWORD(protocols.rawValue), DWORD(initialization.rawValue),
                &active)
            try check(rv, "SCardReconnect")
            return PCSCProtocols(rawValue: UInt32(truncatingIfNeeded: active))
        }

        public func disconnect(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
            try check(disconnectFn(self.card(card), DWORD(disposition.rawValue)), "SCardDisconnect")
        }

        public func beginTransaction(_ card: PCSCCardID) throws(PCSCError) {
            try check(begin(self.card(card)), "SCardBeginTransaction")
        }

        public func endTransaction(_ card: PCSCCardID, disposition: PCSCDisposition) throws(PCSCError) {
            try check(end(self.card(card), DWORD(disposition.rawValue)), "SCardEndTransaction")
        }

        public func status(_ card: PCSCCardID) throws(PCSCError) -> PCSCCardStatus {
            var name = [CChar](repeating: 0, count: 256)
            var nameLength = DWORD(name.count)
            var state: DWORD = 0
            var proto: DWORD = 0
            var atr = [UInt8](repeating: 0, count: 33)
            var atrLength = DWORD(atr.count)
            let rv = statusFn(self.card(card), &name, &nameLength, &state, &proto, &atr, &atrLength)
            try check(rv, "SCardStatus")
            return PCSCCardStatus(
                reader: Self.splitMultiString(name.prefix(Int(min(nameLength, DWORD(name.count))))).first ?? "",
                state: UInt32(truncatingIfNeeded: state),
                activeProtocol: PCSCProtocols(rawValue: UInt32(truncatingIfNeeded: proto)),
                atr: Array(atr.prefix(Int(min(atrLength, 33)))))
        }

        public func transmit(
            _ card: PCSCCardID, protocol: PCSCProtocols, command: [UInt8]
        ) throws(PCSCError) -> [UInt8] {
            let pci: UnsafeRawPointer =
                `protocol`.contains(.t1) ? t1Pci : (`protocol`.contains(.t0) ? t0Pci : rawPci)
            // Short APDUs answer at most 256 + 2 bytes; extended ones up to 65536 + 2.
            var response = [UInt8](repeating: 0, count: command.count > 261 ? 65_538 : 258)
            var length = DWORD(response.count)
            let rv = command.withUnsafeBufferPointer { cmd in
                response.withUnsafeMutableBufferPointer { resp in
                    transmitFn(self.card(card), pci, cmd.baseAddress, DWORD(cmd.count), nil, resp.baseAddress, &length)
                }
            }
            if UInt32(truncatingIfNeeded: rv) == PCSCStatus.insufficientBuffer, response.count < 65_538 {
                // An extended-length answer to a short command: retry once with the largest buffer.
                response = [UInt8](repeating: 0, count: 65_538)
                length = DWORD(response.count)
                let again = command.withUnsafeBufferPointer { cmd in
                    response.withUnsafeMutableBufferPointer { resp in
                        transmitFn(
                            self.card(card), pci, cmd.baseAddress, DWORD(cmd.count), nil, resp.baseAddress, &length)
                    }
                }
                try check(again, "SCardTransmit")
                return Array(response.prefix(Int(length)))
            }
            try check(rv, "SCardTransmit")
            return Array(response.prefix(Int(min(length, DWORD(response.count)))))
        }

        public func control(_ card: PCSCCardID, code: UInt32, command: [UInt8]) throws(PCSCError) -> [UInt8] {
            var response = [UInt8](repeating: 0, count: 1024)
            var returned: DWORD = 0
            let rv = command.withUnsafeBytes { cmd in
                response.withUnsafeMutableBytes { resp in
                    controlFn(
                        self.card(card), DWORD(code), cmd.baseAddress, DWORD(cmd.count), resp.baseAddress,
                        DWORD(resp.count), &returned)
                }
            }
            try check(rv, "SCardControl")
            return Array(response.prefix(Int(min(returned, 1024))))
        }
    }
#endif
