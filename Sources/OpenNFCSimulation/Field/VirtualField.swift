public import OpenNFCRF

/// A deterministic RF field with virtual tags in it: the card side of a reader's antenna.
///
/// Tags are placed at integer positions (poll order follows position, then arrival), removed, moved, or scheduled to
/// arrive and leave at instants of the injected ``VirtualClock``. The field does what ISO 14443-3/-4 leave to the
/// reader's chip and the card's front end: anticollision and SELECT (reporting UID, SENS_RES, SEL_RES), RATS/ATS for
/// ISO-DEP tags, HLTA/DESELECT into HALT and WUPA out of it, and the air time of every frame. Tags see only
/// frames without CRC (level 3) or ISO-DEP payloads (``VirtualTag``).
///
/// | Feature | Supported | Notes |
/// |---|---|---|
/// | Several tags at once | yes | `poll` returns all; one is active at a time, selecting another idles the first |
/// | HLTA / WUPA / REQA | yes | `halt()` or a raw `50 00` frame; `poll(wakeUp: false)` (REQA) skips halted tags |
/// | RATS / ATS | yes | on `activate(isoDEP: true)`, or a raw `E0 xx` frame to a level-3-activated ISO-DEP tag |
/// | ISO-DEP blocks, chaining, WTX | abstracted | each exchange carries one whole payload; block framing is not simulated |
/// | Air time | yes | ``VirtualTiming`` (106 kbit/s by default); tag processing time via ``VirtualTag/processingTime(for:)`` |
/// | Faults | yes | ``FaultPlan``: removal, tearing, mute tag, RF errors, latency |
/// | NFC-B/F/V anticollision | no | tags report their own technology; no collision resolution beyond NFC-A order |
///
/// Not thread-safe: drive the field, and advance its clock, from one serial executor. (It is `@unchecked Sendable`
/// only so timers on the clock can reach it.)
public final class VirtualField: @unchecked Sendable {
    /// What the field reports about each tag arriving, leaving or moving.
    public enum Event: Sendable, Hashable {
        case placed(handle: Int)
        case removed(handle: Int)
        case moved(handle: Int, position: Int)
    }

    enum TagState: Equatable {
        /// Powered, not selected (answers REQA and WUPA).
        case idle
        case active(isoDEP: Bool)
        /// After HLTA/DESELECT: answers WUPA only.
        case halted
    }

    struct Entry {
        var handle: Int
        var tag: any VirtualTag
        var position: Int
        var state: TagState = .idle
        var mutedByFault = false
    }

    /// The clock every air time, latency and scheduled arrival runs on.
    public let clock: VirtualClock
    /// Air-interface durations added to the clock.
    public var timing: VirtualTiming
    /// Faults for the frames that follow; installing a plan restarts frame numbering at 1.
    public var faultPlan: FaultPlan = .none { didSet { framesExchanged = 0 } }
    /// Whether events are appended to ``transcript``.
    public var isRecording: Bool
    /// What happened while ``isRecording`` was true.
    public private(set) var transcript = FieldTranscript()
    /// Exchanges since the fault plan was installed (or the field created).
    public private(set) var framesExchanged = 0
    /// The tag the reader has selected, if any.
    public private(set) var activeHandle: Int?

    private var entries: [Entry] = []
    private var nextHandle = 1
    private var pendingArrivals: [Int: (tag: any VirtualTag, position: Int)] = [:]
    private var nextArrival = 1
    private var observers: [Int: (Event) -> Void] = [:]
    private var nextObserver = 1

    public init(clock: VirtualClock, timing: VirtualTiming = .iso14443A106, recording: Bool = false) {
        self.clock = clock
        self.timing = timing
        self.isRecording = recording
    }

    // MARK: Tags in the field

    /// The tags now in the field, in poll order.
    public var tags: [(handle: Int, tag: any VirtualTag, position: Int)] {
        entries.map { ($0.handle, $0.tag, $0.position) }
    }

    /// The tag with this handle, if it is in the field.
    public func tag(_ handle: Int) -> (any VirtualTag)? { entries.first { $0.handle == handle }?.tag }

    /// Puts a tag into the field (it powers up) and returns its handle, unique for this field. A tag object that is
    /// already in the field stays where it is and keeps its handle (one chip cannot be in two places).
    @discardableResult
    public func place(_ tag: any VirtualTag, at position: Int = 0) -> Int {
        if let present = entries.first(where: { $0.tag === tag }) { return present.handle }
        let handle = nextHandle
        nextHandle += 1
        tag.powerOn()
        let entry = Entry(handle: handle, tag: tag, position: position)
        let index = entries.firstIndex { $0.position > position } ?? entries.endIndex
        entries.insert(entry, at: index)
        record(handle, .placed(chip: tag.chip, uid: tag.activation.uid, position: position))
        notify(.placed(handle: handle))
        return handle
    }

    /// Puts a tag into the field for `duration` of virtual time, then takes it out again.
    @discardableResult
    public func place(_ tag: any VirtualTag, at position: Int = 0, for duration: NFCDuration) -> Int {
        let handle = place(tag, at: position)
        clock.schedule(after: duration) { [weak self] in self?.remove(handle) }
        return handle
    }

    /// Puts a tag into the field once `delay` of virtual time has passed (a timer on the clock).
    public func place(_ tag: any VirtualTag, at position: Int = 0, after delay: NFCDuration) {
        let id = nextArrival
        nextArrival += 1
        pendingArrivals[id] = (tag, position)
        clock.schedule(after: delay) { [weak self] in self?.arrive(id) }
    }

    private func arrive(_ id: Int) {
        guard let pending = pendingArrivals.removeValue(forKey: id) else { return }
        place(pending.tag, at: pending.position)
    }

    /// Takes the tag out of the field (it loses power; its memory stays in the object). Returns it, or nil when no
    /// tag has this handle.
    @discardableResult
    public func remove(_ handle: Int) -> (any VirtualTag)? {
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else { return nil }
        let entry = entries.remove(at: i)
        // An active tag that leaves stays "active" until the reader's next exchange, which then fails with linkLost.
        record(handle, .removed)
        notify(.removed(handle: handle))
        return entry.tag
    }

    /// Takes every tag out of the field.
    public func removeAll() {
        for entry in entries { remove(entry.handle) }
    }

    /// Moves a tag to another position inside the field (it keeps power and state; only poll order changes).
    public func move(_ handle: Int, to position: Int) {
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else { return }
        var entry = entries.remove(at: i)
        entry.position = position
        let index = entries.firstIndex { $0.position > position } ?? entries.endIndex
        entries.insert(entry, at: index)
        record(handle, .moved(position: position))
        notify(.moved(handle: handle, position: position))
    }

    /// Takes the tag out and puts it back after `outFor` of virtual time (a user lifting the phone off a tag).
    /// It powers up again with a new handle; returns nil when no tag has this handle.
    public func moveOut(_ handle: Int, for outFor: NFCDuration, returningTo position: Int? = nil) {
        guard let entry = entries.first(where: { $0.handle == handle }) else { return }
        remove(handle)
        place(entry.tag, at: position ?? entry.position, after: outFor)
    }

    /// Switches the field off and on: every tag loses power (volatile state cleared, HALT left), none is active.
    public func powerCycle() {
        activeHandle = nil
        record(nil, .powerCycled)
        for i in entries.indices {
            entries[i].state = .idle
            entries[i].tag.powerOn()
        }
    }

    /// Registers a closure called synchronously for every arrival, removal and move; returns a token for
    /// ``removeObserver(_:)``.
    @discardableResult
    public func addObserver(_ observer: @escaping (Event) -> Void) -> Int {
        let id = nextObserver
        nextObserver += 1
        observers[id] = observer
        return id
    }

    /// Stops calling the observer registered under `token`.
    public func removeObserver(_ token: Int) { observers[token] = nil }

    /// Empties the transcript.
    public func clearTranscript() { transcript = FieldTranscript() }

    // MARK: Reader side

    /// The tags that answer a REQA (`wakeUp: false`: idle tags only) or a WUPA (`wakeUp: true`: halted ones too) for
    /// the given technologies, in poll order. Polling selects nothing and costs no virtual time.
    public func poll(_ technologies: Set<RFTechnology>, wakeUp: Bool = true) -> [RFTarget] {
        entries.filter { e in
            !e.mutedByFault && technologies.contains(e.tag.activation.technology)
                && (wakeUp || e.state != .halted)
        }.map { target(for: $0, isoDEP: false) }
    }

    /// Selects the tag (anticollision, SELECT; then RATS when `isoDEP` is true and the tag has an ATS).
    /// The tag is reset (``VirtualTag/reset()``): a tag muted by a NAK answers again. Another active tag goes idle.
    public func activate(_ handle: Int, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else {
            throw fail(handle, RFError(.linkLost, "no tag with handle \(handle) in the field"))
        }
        if entries[i].mutedByFault {
            clock.advance(by: timing.silenceTimeout)
            throw fail(handle, RFError(.timeout, "the tag does not answer WUPA"))
        }
        if let previous = activeHandle, previous != handle,
            let j = entries.firstIndex(where: { $0.handle == previous })
        {
            entries[j].state = .idle
        }
        let tag = entries[i].tag
        let useISODEP = isoDEP && tag.activation.ats != nil
        tag.reset()
        clock.advance(by: timing.activation)
        if useISODEP { clock.advance(by: timing.rats) }
        entries[i].state = .active(isoDEP: useISODEP)
        activeHandle = handle
        let t = target(for: entries[i], isoDEP: useISODEP)
        record(handle, .activated(t))
        return t
    }

    /// HLTA (level 3) or S(DESELECT) (ISO-DEP) to the active tag: it goes to HALT until a WUPA.
    public func halt() {
        guard let handle = activeHandle else { return }
        activeHandle = nil
        if let i = entries.firstIndex(where: { $0.handle == handle }) {
            entries[i].state = .halted
            clock.advance(by: timing.frameTime(2))
            record(handle, .halted)
        }
    }

    /// Sends one frame (level 3, without CRC) or one ISO-DEP payload to the active tag and returns its answer.
    ///
    /// Throws `notActivated` without an active tag, `linkLost` when the tag left the field (or leaves during this
    /// frame), `timeout` when it stays silent, and whatever the fault plan injects.
    public func exchange(_ frame: [UInt8]) throws(RFError) -> RFResponse {
        guard let handle = activeHandle else { throw RFError(.notActivated, "no tag is activated") }
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else {
            activeHandle = nil
            throw fail(handle, RFError(.linkLost, "the tag left the field"))
        }
        framesExchanged += 1
        let n = framesExchanged
        let entry = entries[i]
        record(handle, .command(frame))
        let extra = faultPlan.latency(for: n)
        if extra > .zero {
            record(handle, .fault("latency \(extra) on frame \(n)"))
            clock.advance(by: extra)
        }
        clock.advance(by: timing.frameTime(frame.count))
        if faultPlan.mutes(at: n) && !entry.mutedByFault {
            entries[i].mutedByFault = true
            record(handle, .fault("tag mute from frame \(n)"))
        }
        if entries[i].mutedByFault {
            clock.advance(by: timing.silenceTimeout)
            throw fail(handle, RFError(.timeout, "no answer (tag mute)"))
        }
        if let bytes = faultPlan.tear(at: n) {
            _ = entry.tag.receive(frame, tearAfter: bytes)
            clock.advance(by: entry.tag.processingTime(for: frame))
            record(handle, .fault("tag torn away during frame \(n) after \(bytes) bytes"))
            remove(handle)
            throw fail(handle, RFError(.linkLost, "the tag left the field during the exchange"))
        }
        let injected = faultPlan.error(at: n)
        let answer: VirtualAnswer
        if injected?.tagProcesses == false {
            answer = .silence
        } else {
            answer = respond(to: frame, entryIndex: i)
            clock.advance(by: entry.tag.processingTime(for: frame))
        }
        if let injected {
            record(handle, .fault("\(injected.code.rawValue) injected on frame \(n)"))
            clock.advance(by: injected.code == .timeout ? timing.silenceTimeout : timing.frameDelay)
            throw fail(handle, RFError(injected.code, "injected on frame \(n)"))
        }
        let response: RFResponse
        switch answer {
        case .silence:
            clock.advance(by: timing.silenceTimeout)
            throw fail(handle, RFError(.timeout, "no answer"))
        case .data(let bytes):
            clock.advance(by: timing.frameDelay)
            clock.advance(by: timing.frameTime(bytes.count))
            response = .frame(bytes)
        case .ack:
            clock.advance(by: timing.frameDelay)
            clock.advance(by: timing.nibbleTime)
            response = .ack
        case .nak(let code):
            clock.advance(by: timing.frameDelay)
            clock.advance(by: timing.nibbleTime)
            response = .nak(code)
        }
        record(handle, .answer(response))
        if faultPlan.removesAfter(n) {
            record(handle, .fault("tag removed after frame \(n)"))
            remove(handle)
        }
        return response
    }

    /// What the field itself answers (HLTA, RATS) and what it hands to the tag.
    private func respond(to frame: [UInt8], entryIndex i: Int) -> VirtualAnswer {
        let tag = entries[i].tag
        let isoDEP = entries[i].state == .active(isoDEP: true)
        if !isoDEP {
            // ISO 14443-3 §6.4.3: HLTA gets no answer and halts the tag.
            if frame == [0x50, 0x00] {
                entries[i].state = .halted
                activeHandle = nil
                return .silence
            }
            // ISO 14443-4 §5.6.1: RATS to a tag that offers ISO-DEP; its answer is the ATS.
            if let ats = tag.activation.ats {
                if frame.count == 2 && frame[0] == 0xE0 {
                    entries[i].state = .active(isoDEP: true)
                    return .data(ats)
                }
                return .silence
            }
        }
        return tag.receive(frame, tearAfter: nil)
    }

    private func target(for entry: Entry, isoDEP: Bool) -> RFTarget {
        var air = entry.tag.activation.air
        if case .nfcA(var a) = air, !isoDEP {
            a.ats = nil
            air = .nfcA(a)
        }
        return RFTarget(air, handle: entry.handle)
    }

    private func fail(_ handle: Int?, _ error: RFError) -> RFError {
        record(handle, .failure(error))
        return error
    }

    private func record(_ handle: Int?, _ event: FieldTranscript.Event) {
        guard isRecording else { return }
        transcript.entries.append(FieldTranscript.Entry(time: clock.now, handle: handle, event: event))
    }

    private func notify(_ event: Event) {
        for id in observers.keys.sorted() { observers[id]?(event) }
    }
}
