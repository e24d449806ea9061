internal import OpenNFCCrypto

/// One native DESFire answer: status byte and data (natively sent status first; ISO-wrapped, data then `91 status`).
struct DESFireReply: Sendable, Hashable {
    var status: DESFireStatus
    var data: [UInt8] = []

    static func status(_ s: DESFireStatus) -> DESFireReply { DESFireReply(status: s) }
}

/// The card-side state machine of the emulated MIFARE DESFire EV1 native command subset (NXP MF3ICD81 datasheet §9):
/// the PICC's applications, the selected application (the ISO engine's current DF, so that native
/// SelectApplication and ISO SELECT agree), and a pending multi-frame exchange (`AF` chaining).
///
/// Frames carry at most 59 data bytes (plus the status byte: 60 bytes, inside the EV1's 64-byte FSC with PCB and
/// CRC). A command other than `AF` while an exchange is pending abandons it: an unfinished WriteData commits nothing.
struct DESFireMachine: Sendable {
    static let maxFrameData = 59

    enum Pending: Sendable, Hashable {
        case none
        /// Response frames of which `next` is the one the next `AF` fetches.
        case frames([[UInt8]], next: Int)
        /// A WriteData (or WriteRecord, `record`) waiting for more data frames: its header (code, file, offset,
        /// length) and how it travels.
        case write(
            ISO7816FileReference, offset: Int, length: Int, received: [UInt8], header: [UInt8], mode: UInt8,
            record: Bool)
        /// An authentication waiting for the reader's token (`AF` ‖ ek(RndA ‖ RndB')).
        case authentication(code: UInt8, keyNumber: UInt8, key: DESFireKey, rndB: [UInt8], iv: [UInt8])
    }

    var picc: DESFirePICC
    var engine: ISO7816Engine
    var version: DESFireEV1Tag.Version
    var uid: [UInt8]
    var piccKeySettings: UInt8 = 0x0F
    var pending: Pending = .none
    /// The authenticated session, if any (DESFireMachine+Security.swift).
    var session: DESFireSession?
    /// Where RndB comes from.
    var random: any RandomSource = SystemRandomSource()
    /// Set by a command whose answer is already protected (enciphered) or must not carry a CMAC.
    var responseSecured = false
    /// The changes of the open transaction (backup, value and record files of the selected application), by file
    /// number, pending until CommitTransaction (DESFireMachine+Transaction.swift).
    var transaction: [UInt8: DESFirePendingChange] = [:]
    /// What SetConfiguration set (DESFireMachine+Configuration.swift).
    var configuration = DESFireConfiguration()
    /// The UID of this power cycle when random ID is on.
    var randomUID: [UInt8]?

    /// The selected application, or nil at PICC level.
    var selectedApplication: Int? { engine.currentDF }

    mutating func reset() {
        pending = .none
        session = nil
        transaction = [:]
        engine.reset(in: picc)
    }

    /// ISO/IEC 7816-4 commands (CLA `00`) through the shared engine; they abandon a pending native exchange.
    mutating func iso(_ frame: [UInt8], tearAfter: Int?) -> ISO7816Engine.Outcome {
        pending = .none
        session = nil
        transaction = [:]
        return engine.process(frame, in: &picc, tearAfter: tearAfter)
    }

    mutating func native(_ code: UInt8, _ params: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        responseSecured = false
        if code == 0xAF, case .authentication(let c, let n, let key, let rndB, let iv) = pending {
            return finishAuthentication(params, code: c, keyNumber: n, key: key, rndB: rndB, iv: iv)
        }
        let wasSecured = session != nil && session?.legacy == false
        if tearAfter != nil && code != 0xC7 { transaction = [:] }  // power lost mid-transaction: nothing commits
        var reply: DESFireReply
        if code == 0xAF {
            // The next frame of an answer: its CMAC was placed when the answer was built.
            if case .frames = pending { return continuation(params, tearAfter: tearAfter) }
            reply = continuation(params, tearAfter: tearAfter)
        } else {
            pending = .none
            if [0x0A, 0x1A, 0xAA].contains(code) {
                transaction = [:]  // an authentication aborts the transaction
                return beginAuthentication(code, params)
            }
            // EV1: a plain command moves the IV by its CMAC; commands with protected input do it themselves.
            if wasSecured && !Self.protectedInput.contains(code) { macCommand([code] + params) }
            reply = dispatch(code, params, tearAfter: tearAfter)
        }
        if reply.status != .ok && reply.status != .additionalFrame {
            session = nil
            return reply
        }
        guard wasSecured, session != nil, !responseSecured else { return reply }
        // EV1: the answer's CMAC covers all of its frames' data and the final status; it rides in the last frame.
        if reply.status == .ok {
            reply.data += macResponse(reply.data)
        } else if case .frames(let frames, _) = pending {
            // `frames` holds every frame of the answer, the first (just built) included.
            let mac = macResponse(frames.flatMap { $0 })
            var out = frames
            out[out.count - 1] += mac
            if out[out.count - 1].count > Self.maxFrameData {
                let last = out.removeLast()
                out += Self.chunked(last)
            }
            return send(out)
        }
        return reply
    }

    private mutating func dispatch(_ code: UInt8, _ params: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        switch code {
        case 0x60: return getVersion(params)
        case 0x6A: return getApplicationIDs(params)
        case 0x5A: return selectApplication(params)
        case 0x6F: return getFileIDs(params)
        case 0xF5: return getFileSettings(params)
        case 0x45: return getKeySettings(params)
        case 0xBD: return readData(params)
        case 0x3D: return writeData(params, tearAfter: tearAfter)
        case 0x6D: return getDFNames(params)
        case 0x61: return getISOFileIDs(params)
        case 0xCA: return createApplication(params)
        case 0xDA: return deleteApplication(params)
        case 0xCD: return createStdDataFile(params)
        case 0xDF: return deleteFile(params)
        case 0x64: return getKeyVersion(params)
        case 0xC4: return changeKey(params, tearAfter: tearAfter)
        case 0x54: return changeKeySettings(params)
        case 0x51: return getCardUID(params)
        case 0xFC: return formatPICC(params)
        case 0x6E: return getFreeMemory(params)
        case 0xCB: return createBackupDataFile(params)
        case 0xCC: return createValueFile(params)
        case 0xC1, 0xC0: return createRecordFile(params, cyclic: code == 0xC0)
        case 0x6C: return getValue(params)
        case 0x0C, 0xDC, 0x1C: return changeValue(code, params)
        case 0x3B: return writeRecord(params, tearAfter: tearAfter)
        case 0xBB: return readRecords(params)
        case 0xEB: return clearRecordFile(params)
        case 0xC7: return commitTransaction(params, tearAfter: tearAfter)
        case 0xA7: return abortTransaction(params)
        case 0x5C: return setConfiguration(params)
        case 0x5F: return changeFileSettings(params)
        default: return .status(.illegalCommand)
        }
    }

    private mutating func continuation(_ params: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        switch pending {
        case .none:
            return .status(.illegalCommand)
        case .frames(let frames, let next):
            guard params.isEmpty else {
                pending = .none
                return .status(.lengthError)
            }
            return send(frames, from: next)
        case .write(let ref, let offset, let length, var received, let header, let mode, let record):
            received += params
            return collect(
                ref, offset: offset, length: length, received: received, header: header, mode: mode, record: record,
                tearAfter: tearAfter)
        case .authentication:
            pending = .none
            return .status(.illegalCommand)
        }
    }

    /// The first of `frames` now; the others on `AF`.
    mutating func sendFrames(_ frames: [[UInt8]]) -> DESFireReply { send(frames) }

    /// Frame `index` of `frames` now (status `AF` while more follow, `00` for the last); the rest on `AF`.
    mutating func send(_ frames: [[UInt8]], from index: Int = 0) -> DESFireReply {
        guard index < frames.count else {
            pending = .none
            return .status(.ok)
        }
        if index == frames.count - 1 {
            pending = .none
            return DESFireReply(status: .ok, data: frames[index])
        }
        pending = .frames(frames, next: index + 1)
        return DESFireReply(status: .additionalFrame, data: frames[index])
    }

    static func chunked(_ data: [UInt8], by size: Int = maxFrameData) -> [[UInt8]] {
        guard !data.isEmpty else { return [[]] }
        return stride(from: 0, to: data.count, by: size).map { Array(data[$0..<min($0 + size, data.count)]) }
    }

    static func le24(_ p: ArraySlice<UInt8>, _ at: Int) -> Int {
        let i = p.startIndex + at
        return Int(p[i]) | Int(p[i + 1]) << 8 | Int(p[i + 2]) << 16
    }

    // MARK: Commands

    /// GetVersion `60`: hardware, software, then UID + batch + production date, over three frames.
    private mutating func getVersion(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        // With random ID the UID is hidden (zeros): only GetCardUID gives it (docs/DIFFERENCES.md).
        let shown = configuration.randomID ? [UInt8](repeating: 0, count: uid.count) : uid
        let production = shown + version.batch + [version.productionWeek, version.productionYear]
        return send([version.hardware, version.software, production])
    }

    /// GetApplicationIDs `6A`: every AID (3 bytes LE), 19 per frame; PICC level only.
    private mutating func getApplicationIDs(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard selectedApplication == nil else { return .status(.permissionDenied) }
        let aids = picc.applications.flatMap { [UInt8($0.aid & 0xFF), UInt8($0.aid >> 8 & 0xFF), UInt8($0.aid >> 16)] }
        if aids.isEmpty { return .status(.ok) }
        return send(Self.chunked(aids, by: 57))
    }

    /// SelectApplication `5A` AID(3, LE); `000000` is the PICC.
    private mutating func selectApplication(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 3 else { return .status(.lengthError) }
        let aid = UInt32(Self.le24(p, 0))
        // Selecting (even the same application again) ends the session and aborts the transaction.
        transaction = [:]
        if aid == 0 {
            engine.select(df: nil, ef: nil, in: picc)
            session = nil
            return .status(.ok)
        }
        guard let df = picc.application(aid: aid) else { return .status(.applicationNotFound) }
        engine.select(df: df, ef: nil, in: picc)
        session = nil
        return .status(.ok)
    }

    /// GetFileIDs `6F`: the file numbers of the selected application.
    private func getFileIDs(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard let df = selectedApplication else { return .status(.permissionDenied) }
        return DESFireReply(status: .ok, data: picc.applications[df].files.map(\.number))
    }

    /// GetKeySettings `45`: key settings and key count of the PICC or the selected application.
    private func getKeySettings(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.isEmpty else { return .status(.lengthError) }
        guard let df = selectedApplication else { return DESFireReply(status: .ok, data: [piccKeySettings, 0x01]) }
        let app = picc.applications[df]
        return DESFireReply(status: .ok, data: [app.keySettings, app.keyCount])
    }

    /// Resolves a file number of the selected application.
    func file(_ number: UInt8) -> Result<ISO7816FileReference, DESFireError> {
        guard let df = selectedApplication else { return .failure(.init(.permissionDenied)) }
        guard number <= 0x1F else { return .failure(.init(.parameterError)) }
        guard let ref = picc.file(in: df, number: number) else { return .failure(.init(.fileNotFound)) }
        return .success(ref)
    }

    /// Whether `operation` on the file is allowed now: free access, or a session with one of the keys its access
    /// rights name (its own nibble or Read&Write). Returns the refusal, or nil and whether the data travels
    /// protected (a key-granted access uses the file's communication settings; free access is always plain).
    private func checkAccess(_ ref: ISO7816FileReference, _ operation: ISO7816FileOperation) -> DESFireStatus? {
        accessMode(ref, operation).refusal
    }

    func accessMode(_ ref: ISO7816FileReference, _ operation: ISO7816FileOperation) -> (
        refusal: DESFireStatus?, communication: UInt8
    ) {
        accessMode(ref, operation == .read ? [.read, .readWrite] : [.write, .readWrite])
    }

    /// Whether a command that any of `rights` grants may run now: free access (plain), a session with one of the
    /// keys they name (the file's communication settings apply: `00` plain, `01` MACed, `03` enciphered), `AE`
    /// without it, `9D` when all are `F`.
    func accessMode(_ ref: ISO7816FileReference, _ rights: [DESFireFile.Right]) -> (
        refusal: DESFireStatus?, communication: UInt8
    ) {
        let f = picc.file(ref)
        switch f.access(nibbles: rights) {
        case .free: return (nil, 0x00)
        case .never: return (.permissionDenied, 0)
        case .needsKey:
            guard let s = session, rights.contains(where: { f.key($0) == s.keyNumber }) else {
                return (.authenticationError, 0)
            }
            let mode = f.communicationSettings & 0x03
            return (nil, mode == 0x02 ? 0x00 : mode)
        }
    }

    /// GetFileSettings `F5` fileNo: type, communication, access rights (LE), then for data files size (3 LE); for
    /// value files lower limit, upper limit, limited credit value (4 LE each) and the limited credit byte (bit 0
    /// enabled, bit 1 free GetValue); for record files record size, most records and current records (3 LE each).
    private func getFileSettings(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 1 else { return .status(.lengthError) }
        let resolved = file(p[p.startIndex])
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        let f = picc.file(ref)
        var data = [f.kind.typeByte, f.communicationSettings, UInt8(f.accessRights & 0xFF), UInt8(f.accessRights >> 8)]
        switch f.kind {
        case .standard, .backup:
            data += Self.le(UInt32(f.contents.count), 3)
        case .value(let lower, let upper, let limited, let free):
            data += Self.le(UInt32(bitPattern: lower), 4) + Self.le(UInt32(bitPattern: upper), 4)
            data += Self.le(UInt32(bitPattern: f.limitedCreditValue), 4) + [(limited ? 1 : 0) | (free ? 2 : 0)]
        case .linearRecord(let size, let most), .cyclicRecord(let size, let most):
            data += Self.le(UInt32(size), 3) + Self.le(UInt32(most), 3) + Self.le(UInt32(f.records.count), 3)
        }
        return DESFireReply(status: .ok, data: data)
    }

    /// ReadData `BD` fileNo offset(3 LE) length(3 LE); length 0 reads to the end of the file. A backup file
    /// answers its committed contents.
    private mutating func readData(_ p: ArraySlice<UInt8>) -> DESFireReply {
        guard p.count == 7 else { return .status(.lengthError) }
        let resolved = file(p[p.startIndex])
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        guard picc.file(ref).kind.isData else { return .status(.permissionDenied) }
        let (refusal, mode) = accessMode(ref, .read)
        if let refusal { return .status(refusal) }
        let size = picc.efSize(ref)
        let offset = Self.le24(p, 1)
        var length = Self.le24(p, 4)
        guard offset < size || (offset == 0 && size == 0) else { return .status(.boundaryError) }
        if length == 0 { length = size - offset }
        guard offset + length <= size else { return .status(.boundaryError) }
        guard let out = protectResponse(picc.efRead(ref, offset..<offset + length), mode: mode) else {
            return .status(.authenticationError)
        }
        return send(Self.chunked(out))
    }

    /// WriteData `3D` fileNo offset(3 LE) length(3 LE) data…; more data follows in `AF` frames. On a standard file
    /// the data is written when complete (torn then, only its first `tearAfter` bytes reach the file); on a backup
    /// file it waits for CommitTransaction.
    private mutating func writeData(_ p: ArraySlice<UInt8>, tearAfter: Int?) -> DESFireReply {
        guard p.count >= 7 else { return .status(.lengthError) }
        let resolved = file(p[p.startIndex])
        guard case .success(let ref) = resolved else { return .status(resolved.desfireStatus) }
        guard picc.file(ref).kind.isData else { return .status(.permissionDenied) }
        let offset = Self.le24(p, 1)
        let length = Self.le24(p, 4)
        guard length > 0 else { return .status(.lengthError) }
        let (refusal, mode) = accessMode(ref, .write)
        if let refusal { return .status(refusal) }
        guard offset + length <= picc.efSize(ref) else { return .status(.boundaryError) }
        return collect(
            ref, offset: offset, length: length, received: Array(p.dropFirst(7)), header: [0x3D] + Array(p.prefix(7)),
            mode: mode, record: false, tearAfter: tearAfter)
    }

    /// Gathers a WriteData's or WriteRecord's frames; once complete, unwraps their protection
    /// (``unprotectCommand(header:wire:length:mode:)``) and writes: a standard file at once, a backup or record
    /// file into the transaction.
    mutating func collect(
        _ ref: ISO7816FileReference, offset: Int, length: Int, received: [UInt8], header: [UInt8], mode: UInt8,
        record: Bool, tearAfter: Int?
    ) -> DESFireReply {
        let expected = protectedLength(length, mode: mode)
        if received.count > expected {
            pending = .none
            return .status(.lengthError)
        }
        if received.count < expected {
            pending = .write(
                ref, offset: offset, length: length, received: received, header: header, mode: mode, record: record)
            return .status(.additionalFrame)
        }
        pending = .none
        guard let data = unprotectCommand(header: header, wire: received, length: length, mode: mode) else {
            return .status(.integrityError)
        }
        if record { return stageRecord(ref, offset: offset, data) }
        if picc.file(ref).kind == .backup {
            guard tearAfter == nil else { return .status(.ok) }  // torn: the transaction is lost anyway
            stageBackup(ref, offset: offset, data)
            return .status(.ok)
        }
        let committed = min(tearAfter ?? length, length)
        if committed > 0 { picc.efWrite(ref, at: offset, data[0..<committed]) }
        return .status(.ok)
    }
}

/// A DESFire status as a `Result` failure.
struct DESFireError: Error, Sendable, Hashable {
    var status: DESFireStatus
    init(_ status: DESFireStatus) { self.status = status }
}

extension Result where Failure == DESFireError {
    var desfireStatus: DESFireStatus {
        if case .failure(let e) = self { return e.status }
        return .ok
    }
}
