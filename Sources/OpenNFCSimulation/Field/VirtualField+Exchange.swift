package import OpenNFCRF

/// Exchanges with the active tag: a frame or ISO-DEP payload, or an enciphered NFC-A frame with its parity bits; the
/// fault plan applied frame by frame, and the clock advanced by each frame's air time (``AirTimeModel``, or the
/// technology's ``VirtualTiming``), the reader profile and the tag's processing (docs/TIMING.md).
extension VirtualField {
    /// Sends one frame (without CRC; FeliCa without LEN) or one ISO-DEP payload to the active tag and returns its
    /// answer.
    ///
    /// Throws `notActivated` without an active tag, `linkLost` when the tag left the field (or leaves during this
    /// frame), `timeout` when it stays silent, and whatever the fault plan injects.
    package func exchange(_ frame: [UInt8]) throws(RFError) -> RFResponse {
        switch try deliver(.plain(frame)) {
        case .plain(.data(let bytes)): return .frame(bytes)
        case .plain(.ack): return .ack
        case .plain(.nak(let code)): return .nak(code)
        default: throw RFError(.timeout, "no answer")
        }
    }

    /// Sends one frame with its parity bits to the active tag (a MIFARE Classic link enciphered by Crypto1: the
    /// ciphertext carries its own CRC_A, so the field adds none and intercepts nothing, not even HLTA) and returns
    /// the answer as it came over the air. A tag that cannot take such frames stays silent. Faults, timing and
    /// errors as ``exchange(_:)``.
    package func exchange(air frame: NFCAAirFrame) throws(RFError) -> NFCAAirAnswer {
        switch try deliver(.air(frame)) {
        case .air(let answer) where answer != .silence: return answer
        default: throw RFError(.timeout, "no answer")
        }
    }

    enum Delivery {
        case plain([UInt8])
        case air(NFCAAirFrame)
        var count: Int {
            switch self {
            case .plain(let b): return b.count
            case .air(let f): return f.bytes.count
            }
        }
    }

    enum Delivered {
        case plain(VirtualAnswer)
        case air(NFCAAirAnswer)
    }

    private func hand(_ delivery: Delivery, to tag: any VirtualTag, tearAfter: Int?) -> Delivered {
        switch delivery {
        case .plain(let frame): return .plain(tag.receive(frame, tearAfter: tearAfter))
        case .air(let frame):
            return .air((tag as? any VirtualAirFrameTag)?.receive(air: frame, tearAfter: tearAfter) ?? .silence)
        }
    }

    private func processing(_ delivery: Delivery, _ tag: any VirtualTag) -> NFCDuration {
        switch delivery {
        case .plain(let frame): return tag.processingTime(for: frame)
        case .air(let frame): return tag.processingTime(for: frame.bytes)
        }
    }

    private func deliver(_ delivery: Delivery) throws(RFError) -> Delivered {
        guard let handle = activeHandle else { throw RFError(.notActivated, "no tag is activated") }
        guard let i = entries.firstIndex(where: { $0.handle == handle }) else {
            activeHandle = nil
            throw fail(handle, RFError(.linkLost, "the tag left the field"))
        }
        lastAir = .frames([])
        framesExchanged += 1
        let n = framesExchanged
        // The plan for this frame, read once (each read of the stored property is a dynamic exclusivity check).
        let faultPlan = faultPlan
        let entry = entries[i]
        let technology = entry.tag.technology
        let timing = timing(for: technology)
        switch delivery {
        case .plain(let frame): record(handle, .command(frame))
        case .air(let frame): record(handle, .cipheredCommand(frame.bytes))
        }
        let extra = faultPlan.latency(for: n)
        if extra > .zero {
            record(handle, .fault("latency \(extra) on frame \(n)"))
            clock.advance(by: extra)
        }
        // A level-3 NFC-A frame (every Type 2 and MIFARE Ultralight command) is timed from the model's totals; its
        // frames are built only if someone asks for ``lastExchangeAir``.
        let level3: (model: AirTimeModel, command: [UInt8])? =
            switch (timing.model, delivery) {
            case (let model?, .plain(let frame)) where technology == .nfcA && entry.state != .active(isoDEP: true):
                (model, frame)
            default: nil
            }
        let commandAir = level3 == nil ? airFrames(delivery, entry, answered: nil) : nil
        let commandTotal =
            level3.map { $0.model.nfcALevel3ExchangeTotal($0.command, answer: nil) } ?? commandAir?.total()
        clock.advance(by: commandTotal.map { $0.duration } ?? timing.frameTime(delivery.count))
        if let profile = readerProfile { clock.advance(by: profile.perExchange) }
        if faultPlan.mutes(at: n) && !entry.mutedByFault {
            entries[i].mutedByFault = true
            record(handle, .fault("tag mute from frame \(n)"))
        }
        if entries[i].mutedByFault {
            clock.advance(by: timing.silenceTimeout)
            throw fail(handle, RFError(.timeout, "no answer (tag mute)"))
        }
        if let bytes = faultPlan.tear(at: n) {
            _ = hand(delivery, to: entry.tag, tearAfter: bytes)
            clock.advance(by: processing(delivery, entry.tag))
            record(handle, .fault("tag torn away during frame \(n) after \(bytes) bytes"))
            remove(handle)
            throw fail(handle, RFError(.linkLost, "the tag left the field during the exchange"))
        }
        let injected = faultPlan.error(at: n)
        let answer: Delivered
        var thinking = NFCDuration.zero
        var whole: [AirFrame]?
        var wholeTotal: AirTime?
        var level3Answer: RFResponse?
        if injected?.tagProcesses == false {
            answer = .plain(.silence)
        } else {
            switch delivery {
            case .plain(let frame):
                answer = .plain(respond(to: frame, entryIndex: i, air: Self.airInterface(technology)))
            case .air: answer = hand(delivery, to: entry.tag, tearAfter: nil)
            }
            thinking = processing(delivery, entry.tag)
            // An ISO-DEP card that thinks past its FWT sends S(WTX) meanwhile (ISO/IEC 14443-4 §7.3): the card goes
            // on processing while those frames travel, so only what outlasts them is added here.
            if let level3 {
                level3Answer = Self.response(answer)
                wholeTotal = level3.model.nfcALevel3ExchangeTotal(level3.command, answer: level3Answer)
            } else {
                whole = airFrames(delivery, entry, answered: answer, processing: thinking)
                wholeTotal = whole?.total()
            }
            let extensions = whole?.filter { $0.label.hasPrefix("S(WTX)") }.total().duration ?? .zero
            clock.advance(
                by: thinking.nanoseconds > extensions.nanoseconds
                    ? NFCDuration(nanoseconds: thinking.nanoseconds - extensions.nanoseconds) : .zero)
        }
        if let level3 {
            lastAir = .nfcALevel3(level3.model, command: level3.command, answer: level3Answer)
        } else {
            lastAir = .frames(whole ?? commandAir ?? [])
        }
        if let injected {
            record(handle, .fault("\(injected.code.rawValue) injected on frame \(n)"))
            clock.advance(by: injected.code == .timeout ? timing.silenceTimeout : timing.frameDelay)
            throw fail(handle, RFError(injected.code, "injected on frame \(n)"))
        }
        switch answer {
        case .plain(.silence), .air(.silence):
            clock.advance(by: timing.silenceTimeout)
            throw fail(handle, RFError(.timeout, "no answer"))
        case .plain(.data(let bytes)):
            clock.advance(
                by: answerTime(wholeTotal, commandTotal) ?? timing.frameDelay + timing.frameTime(bytes.count)
            )
            record(handle, .answer(.frame(bytes)))
        case .plain(.ack):
            clock.advance(by: answerTime(wholeTotal, commandTotal) ?? timing.frameDelay + timing.nibbleTime)
            record(handle, .answer(.ack))
        case .plain(.nak(let code)):
            clock.advance(by: answerTime(wholeTotal, commandTotal) ?? timing.frameDelay + timing.nibbleTime)
            record(handle, .answer(.nak(code)))
        case .air(.frame(let f)):
            clock.advance(
                by: answerTime(wholeTotal, commandTotal) ?? timing.frameDelay
                    + timing.frameTime(f.bytes.count))
            record(handle, .cipheredAnswer(f.bytes, nibble: false))
        case .air(.nibble(let v)):
            clock.advance(by: answerTime(wholeTotal, commandTotal) ?? timing.frameDelay + timing.nibbleTime)
            record(handle, .cipheredAnswer([v], nibble: true))
        }
        if faultPlan.removesAfter(n) {
            record(handle, .fault("tag removed after frame \(n)"))
            remove(handle)
        }
        return answer
    }

    /// The target as the air-time model sees it, and whether it runs ISO-DEP now.
    func airTarget(_ entry: FieldEntry) -> (RFTarget, Bool) {
        (RFTarget(entry.tag.activation.air, handle: entry.handle), entry.state == .active(isoDEP: true))
    }

    /// The frames of one delivery by the model (nil without one): the command's part when `answered` is nil,
    /// otherwise the whole exchange.
    private func airFrames(
        _ delivery: Delivery, _ entry: FieldEntry, answered: Delivered?, processing: NFCDuration = .zero
    ) -> [AirFrame]? {
        guard let model = timing(for: entry.tag.technology).model else { return nil }
        let (target, isoDEP) = airTarget(entry)
        switch delivery {
        case .plain(let frame):
            let response = answered.flatMap(Self.response)
            let cycles = AirTime(cycles: processing.nanoseconds * AirTime.carrierHz / 1_000_000_000)
            return model.exchange(frame, answer: response, target: target, isoDEP: isoDEP, processing: cycles)
        case .air(let f):
            switch answered {
            case .air(.frame(let a))?: return model.enciphered(f.bytes, answerBytes: a.bytes.count, answered: true)
            case .air(.nibble)?: return model.enciphered(f.bytes, answerBytes: nil, answered: true)
            default: return model.enciphered(f.bytes, answerBytes: nil, answered: false)
            }
        }
    }

    /// A plain answer as the model takes it (nil: silence, or not a plain answer).
    private static func response(_ answered: Delivered) -> RFResponse? {
        switch answered {
        case .plain(.data(let b)): .frame(b)
        case .plain(.ack): .ack
        case .plain(.nak(let n)): .nak(n)
        default: nil
        }
    }

    /// The time from the end of the command's frames to the end of the answer's (S(WTX) included), from the
    /// model's totals of both (nil without a model).
    private func answerTime(_ whole: AirTime?, _ commandAir: AirTime?) -> NFCDuration? {
        guard let commandAir, let whole else { return nil }
        let before = commandAir.duration
        let after = whole.duration
        return after >= before ? NFCDuration(nanoseconds: after.nanoseconds - before.nanoseconds) : .zero
    }

    /// What the air interface itself answers (HLTA, RATS, HLTB) and what it hands to the tag.
    private func respond(to frame: [UInt8], entryIndex i: Int, air: any VirtualAirInterface) -> VirtualAnswer {
        if let answer = air.intercept(frame, entry: &entries[i]) {
            if entries[i].state == .halted { activeHandle = nil }
            return answer
        }
        return entries[i].tag.receive(frame, tearAfter: nil)
    }
}

/// What the last exchange put on the air: its frames, or, for a level-3 NFC-A exchange, what they are built from
/// when asked (``VirtualField/lastExchangeAir``).
enum LastExchangeAir {
    case frames([AirFrame])
    case nfcALevel3(AirTimeModel, command: [UInt8], answer: RFResponse?)

    var frames: [AirFrame] {
        switch self {
        case .frames(let f): f
        case .nfcALevel3(let model, let command, let answer): model.nfcALevel3Exchange(command, answer: answer)
        }
    }

    /// The WTXM of each S(WTX) request among the frames (ISO/IEC 14443-4 §7.3); a level-3 exchange has none.
    var waitingTimeExtensions: [UInt8] {
        switch self {
        case .frames(let f): f.filter { $0.label == "S(WTX)" && $0.bytes.count > 1 }.map { $0.bytes[1] }
        case .nfcALevel3: []
        }
    }
}
