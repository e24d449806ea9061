internal import OpenNFCBytes
internal import OpenNFCCrypto
package import OpenNFCRF

/// What frames on the air mean: the transcript a program's frontend would have recorded (so `replay:` can play a
/// capture back), and a name for every frame (for `opennfc trace show`). The inverse of ``AirTrace/init(transcript:)``
/// for its output, and a reading of anyone's capture that keeps to the standards (docs/TRACES.md, "Reading a
/// capture").
package struct AirReading: Sendable {
    /// Polls are not kept (a replay answers polls with the next activation's target); activations, MIFARE Classic
    /// authentications, exchanges and deactivations are, timed by their first frame.
    package var transcript: RFTranscript
    /// One name per frame of the trace (`WUPA`, `I-block 0`, `{nR}{aR}`, …).
    package var labels: [String]
    /// For each exchange event of ``transcript``: the index of the command's last frame and of the answer's last frame.
    package var exchangeFrames: [Int: (command: Int, answer: Int?)]
    /// The target the frames after an activation belong to, by the activation's frame index.
    package var activations: [Int: RFTarget]
    /// The frames MIFARE Classic's Crypto1 enciphered (from {nR}{aR} on), deciphered or not.
    package var enciphered: Set<Int>
    /// What could not be read (enciphered frames without their key, frames out of order); empty for a trace a
    /// replay can play.
    package var problems: [String]
}

extension AirTrace {
    /// Reads the frames as a reader's session. `keys` are tried on every MIFARE Classic authentication.
    package func reading(keys: [[UInt8]] = [], device: String = "") -> AirReading {
        var r = TraceReader(frames: frames, keys: keys.filter { $0.count == 6 })
        r.run()
        var caps = RFCapabilities(
            maxCommandSize: 4096, maxResponseSize: 4096, rawFrames: true,
            technologies: Set(protocols.map(\.technology)))
        caps.mifareClassicAuthentication = true
        return AirReading(
            transcript: RFTranscript(device: device, capabilities: caps, events: r.events), labels: r.labels,
            exchangeFrames: r.exchangeFrames, activations: r.activations, enciphered: r.enciphered,
            problems: r.problems)
    }
}

/// The walk over the frames (this file: the order of events, selection and anticollision; the exchanges of each
/// frame mode are in AirTrace+ReadingExchanges.swift).
struct TraceReader {
    let frames: [AirFrame]
    let keys: [[UInt8]]
    var labels: [String]
    var events: [RFTranscript.Event] = []
    var exchangeFrames: [Int: (command: Int, answer: Int?)] = [:]
    var activations: [Int: RFTarget] = [:]
    var problems: [String] = []
    var enciphered = Set<Int>()
    var i = 0

    enum Mode {
        case idle
        /// After WUPA/REQA: ATQA and the cascade levels so far.
        case selecting(sensRes: UInt16?, uid: [UInt8])
        case level3(RFTarget)
        case type1(RFTarget)
        case enciphered(RFTarget, Crypto1)
        /// Enciphered with a key nobody gave: the frames are named, not read.
        case opaque
        case isoDEP(RFTarget)
        /// NFC-F or NFC-V after a poll; activated on the first exchange.
        case polled(RFTarget, activated: Bool)
    }
    var mode = Mode.idle
    var handles: [[UInt8]: Int] = [:]

    init(frames: [AirFrame], keys: [[UInt8]]) {
        self.frames = frames
        self.keys = keys
        labels = Array(repeating: "", count: frames.count)
    }

    // MARK: helpers

    func time(_ k: Int) -> UInt64 { frames[k].time / 1_000 }

    func frame(_ k: Int, _ event: AirFrame.Event) -> AirFrame? {
        k < frames.count && frames[k].event == event ? frames[k] : nil
    }

    static func crcAOK(_ b: [UInt8]) -> Bool {
        b.count >= 3 && CRC.crcA(b.dropLast(2)) == UInt16(b[b.count - 2]) | UInt16(b[b.count - 1]) << 8
    }
    static func crcBOK(_ b: [UInt8]) -> Bool {
        b.count >= 3 && CRC.crcB(b.dropLast(2)) == UInt16(b[b.count - 2]) | UInt16(b[b.count - 1]) << 8
    }
    static func felicaPayload(_ b: [UInt8]) -> [UInt8]? {
        guard b.count >= 5, b[0] == 0xB2, b[1] == 0x4D, Int(b[2]) == b.count - 4 else { return nil }
        let body = b[2..<(b.count - 2)]
        guard CRC.felica(body) == UInt16(b[b.count - 2]) << 8 | UInt16(b[b.count - 1]) else { return nil }
        return Array(b[3..<(b.count - 2)])
    }

    mutating func handle(for identifier: [UInt8]) -> Int {
        if let h = handles[identifier] { return h }
        let h = handles.count + 1
        handles[identifier] = h
        return h
    }

    mutating func emit(_ op: RFTranscript.Operation, at k: Int) {
        events.append(RFTranscript.Event(time: time(k), duration: 0, operation: op))
    }

    mutating func activate(_ t: RFTarget, isoDEP: Bool, at k: Int) {
        var target = t
        target.handle = handle(for: t.identifier)
        emit(.activate(handle: target.handle, isoDEP: isoDEP, .success(target)), at: k)
        activations[k] = target
        if isoDEP {
            mode = .isoDEP(target)
        } else if target.nfcA?.type1 != nil {
            mode = .type1(target)
        } else {
            switch target.technology {
            case .nfcA: mode = .level3(target)
            default: mode = .polled(target, activated: true)
            }
        }
    }

    mutating func problem(_ k: Int, _ text: String) {
        problems.append("frame \(k + 1): \(text)")
    }

    // MARK: the walk

    mutating func run() {
        while i < frames.count {
            let f = frames[i]
            switch f.event {
            case .fieldOn:
                labels[i] = "field on"
                i += 1
            case .fieldOff:
                labels[i] = "field off"
                if case .idle = mode {} else if !isDeactivated { emit(.deactivate, at: i) }
                mode = .idle
                i += 1
            case .tag:
                if case .opaque = mode {
                    labels[i] = "enciphered (no key)"
                    enciphered.insert(i)
                    i += 1
                    continue
                }
                labels[i] = "card frame with no reader frame before it"
                problem(i, "a card frame (\(f.bytes.hexString)) answers no reader frame")
                i += 1
            case .reader:
                readerFrame(f)
            }
        }
    }

    var isDeactivated: Bool {
        guard let last = events.last else { return true }
        if case .deactivate = last.operation { return true }
        return false
    }

    /// The frames that start a new selection, whatever the mode: WUPA/REQA, WUPB/REQB, FeliCa Polling, an ISO 15693
    /// Inventory (not while an ISO-DEP or level-3 NFC-A tag is active, whose frames may look like one).
    func startsSelection(_ f: AirFrame) -> Bool {
        let b = f.bytes
        if b.count == 1, b[0] == 0x26 || b[0] == 0x52 { return true }
        if b.count == 5, b[0] == 0x05, Self.crcBOK(b) { return true }
        if let p = Self.felicaPayload(b), p.first == 0x00, p.count == 5 { return true }
        if b.count >= 5, b[0] & 0x04 != 0, b[1] == 0x01, Self.crcBOK(b) {
            if case .isoDEP = mode { return false }
            if case .level3 = mode { return false }
            return true
        }
        return false
    }

    mutating func readerFrame(_ f: AirFrame) {
        if startsSelection(f) {
            if case .idle = mode {
            } else if case .selecting = mode {
            } else if !isDeactivated {
                emit(.deactivate, at: i)
            }
            select(f)
            return
        }
        switch mode {
        case .idle:
            labels[i] = "reader frame outside a session"
            i += 1
            if frame(i, .tag) != nil {
                labels[i] = "answer"
                i += 1
            }
        case .selecting(let sensRes, let uid): anticollision(f, sensRes: sensRes, uid: uid)
        case .level3(let t): level3(f, t)
        case .type1: plainExchange(f, crcB: true)
        case .enciphered(let t, let c): decipher(f, t, c)
        case .opaque:
            labels[i] = "enciphered (no key)"
            enciphered.insert(i)
            i += 1
        case .isoDEP(let t): isoDEP(f, t)
        case .polled(let t, let activated):
            if !activated { activate(t, isoDEP: false, at: i) }
            mode = .polled(t, activated: true)
            if t.technology == .nfcF { felicaExchange(f) } else { plainExchange(f, crcB: true) }
        }
    }

    // MARK: selection

    mutating func select(_ f: AirFrame) {
        let b = f.bytes
        let answer = frame(i + 1, .tag)
        if b.count == 1 {
            labels[i] = b[0] == 0x52 ? "WUPA" : "REQA"
            var sensRes: UInt16?
            if let a = answer, a.bytes.count == 2 {
                sensRes = UInt16(a.bytes[0]) | UInt16(a.bytes[1]) << 8
                labels[i + 1] = "ATQA"
                i += 2
            } else {
                i += 1
            }
            mode = .selecting(sensRes: sensRes, uid: [])
            return
        }
        if b[0] == 0x05 {
            labels[i] = b[2] & 0x08 != 0 ? "WUPB" : "REQB"
            i += 1
            guard let a = answer, Self.crcBOK(a.bytes), let atqb = NFCBActivation(atqb: Array(a.bytes.dropLast(2)))
            else {
                mode = .idle
                return
            }
            labels[i] = "ATQB"
            i += 1
            var act = atqb
            if let attrib = frame(i, .reader), attrib.bytes.first == 0x1D, Self.crcBOK(attrib.bytes) {
                labels[i] = "ATTRIB"
                let k = i
                i += 1
                if let ans = frame(i, .tag), Self.crcBOK(ans.bytes) {
                    labels[i] = "answer to ATTRIB"
                    act.attribResponse = Array(ans.bytes.dropLast(2))
                    i += 1
                    activate(RFTarget(.nfcB(act)), isoDEP: true, at: k)
                    return
                }
            }
            mode = .polled(RFTarget(.nfcB(act)), activated: false)
            return
        }
        if let p = Self.felicaPayload(b) {
            labels[i] = "Polling"
            i += 1
            guard let a = answer, let q = Self.felicaPayload(a.bytes), q.first == 0x01, q.count >= 17 else {
                mode = .idle
                return
            }
            labels[i] = "Polling response"
            i += 1
            let sc = p[3] == 0x01 && q.count >= 19 ? UInt16(q[17]) << 8 | UInt16(q[18]) : nil
            let f = NFCFActivation(
                idm: Array(q[1..<9]), pmm: Array(q[9..<17]), systemCode: sc,
                requestData: q.count > 17 ? Array(q[17...]) : nil)
            mode = .polled(RFTarget(.nfcF(f)), activated: false)
            return
        }
        // ISO 15693 Inventory.
        labels[i] = "Inventory"
        i += 1
        guard let a = answer, Self.crcBOK(a.bytes), a.bytes.count == 12 else {
            mode = .idle
            return
        }
        labels[i] = "Inventory response"
        i += 1
        let afi: UInt8? = b[0] & 0x10 != 0 ? b[2] : nil
        let v = NFCVActivation(uid: a.bytes[2..<10].reversed(), dsfid: a.bytes[1], afi: afi)
        mode = .polled(RFTarget(.nfcV(v)), activated: false)
    }

    mutating func anticollision(_ f: AirFrame, sensRes: UInt16?, uid: [UInt8]) {
        let b = f.bytes
        let answer = frame(i + 1, .tag)
        if b.count == 2, [0x93, 0x95, 0x97].contains(b[0]), b[1] == 0x20 {
            labels[i] = "ANTICOLLISION CL\((b[0] - 0x93) / 2 + 1)"
            i += 1
            if let a = answer {
                let ok = a.bytes.count == 5 && a.bytes.prefix(4).reduce(0, ^) == a.bytes[4]
                labels[i] = ok ? "UID CLn, BCC" : "UID CLn, BCC wrong"
                i += 1
            }
            return
        }
        if b.count == 9, [0x93, 0x95, 0x97].contains(b[0]), b[1] == 0x70, Self.crcAOK(b) {
            labels[i] = "SELECT CL\((b[0] - 0x93) / 2 + 1)"
            let k = i
            i += 1
            guard let a = answer, a.bytes.count == 3, Self.crcAOK(a.bytes) else {
                mode = .idle
                return
            }
            labels[i] = "SAK"
            i += 1
            let sak = a.bytes[0]
            let part = Array(b[2..<6])
            if sak & 0x04 != 0 {
                mode = .selecting(sensRes: sensRes, uid: uid + part.dropFirst())
                return
            }
            var target = RFTarget(.nfcA(NFCAActivation(uid: uid + part, sensRes: sensRes, selRes: sak)))
            if let rats = frame(i, .reader), rats.bytes.count == 4, rats.bytes[0] == 0xE0, Self.crcAOK(rats.bytes),
                let ats = frame(i + 1, .tag), Self.crcAOK(ats.bytes)
            {
                labels[i] = "RATS"
                labels[i + 1] = "ATS"
                target.ats = Array(ats.bytes.dropLast(2))
                i += 2
                activate(target, isoDEP: true, at: k)
                return
            }
            activate(target, isoDEP: false, at: k)
            return
        }
        if b.count == 9, b[0] == 0x78, Self.crcBOK(b), let a = answer, a.bytes.count == 8, Self.crcBOK(a.bytes) {
            labels[i] = "RID"
            labels[i + 1] = "HR0 HR1 UID0-3"
            let k = i
            i += 2
            let t1 = NFCAActivation.Type1Header(hr0: a.bytes[0], hr1: a.bytes[1])
            activate(
                RFTarget(.nfcA(NFCAActivation(uid: Array(a.bytes[2..<6]), sensRes: sensRes, selRes: nil, type1: t1))),
                isoDEP: false, at: k)
            return
        }
        labels[i] = "unexpected during anticollision"
        problem(i, "\(b.hexString) is no anticollision, SELECT or RID frame")
        i += 1
        mode = .idle
    }
}
