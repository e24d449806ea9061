/// The PN532's command dialog (UM0701-02 §6.2.1.3): the host sends a command frame, the chip acknowledges it
/// within a few milliseconds, then answers `D5 code+1 …`.
///
/// | Fault | What the driver does | Error when it persists |
/// |---|---|---|
/// | no ACK | resends the command (``retries`` times) | ``PN532Error/Code/timeout`` naming the device and what to check |
/// | a garbled ACK or answer (checksum, TFI, wrong code) | a garbled answer: NACK asks for it again; a garbled ACK: the command is resent | ``PN532Error/Code/garbled`` with the byte offset |
/// | the error frame | — | ``PN532Error/Code/syntaxError`` naming the command |
/// | no answer after the ACK | sends an ACK (aborts the command, UM0701-02 §6.2.1.3) | ``PN532Error/Code/timeout`` |
/// | the link fails (unplugged) | — | ``PN532Error/Code/unplugged`` from the transport |
///
/// Nothing blocks beyond the timeouts: every read is bounded by the transport, and a stream of noise without a
/// frame ends after ``maxNoise`` bytes.
package final class PN532Driver {
    package let transport: any PN532Transport
    /// How long the chip has to acknowledge a command.
    package var ackTimeoutMilliseconds = 100
    /// How long the chip has to answer after its ACK (RF commands add their own timeouts, see ``call(_:_:timeoutMilliseconds:)``).
    package var answerTimeoutMilliseconds = 1000
    /// Resends of a command that got no ACK, and NACKs for a garbled answer.
    package var retries = 2
    /// Bytes of noise tolerated while waiting for one frame.
    package var maxNoise = 4096
    /// True until the chip has been woken (and again after PowerDown).
    package private(set) var asleep = true
    /// Every frame in both directions when set (`--trace`).
    package var trace: ((String) -> Void)?
    /// Commands sent (frames on the host link, for frame accounting).
    package private(set) var commandsSent = 0
    /// Bytes read after a started command's ACK (its late answer may have come with it).
    private var carried = PN532FrameDecoder()

    package init(transport: any PN532Transport) {
        self.transport = transport
    }

    /// Sends `D4 code parameters` and returns the answer data after the code (`D5 code+1` stripped).
    package func call(
        _ code: UInt8, _ parameters: [UInt8] = [], timeoutMilliseconds: Int? = nil
    ) throws(PN532Error) -> [UInt8] {
        let frame = PN532Frame.command(code, parameters)
        let bytes = frame.encoded
        let what = "\(Self.name(of: code)) (\(PN532Frame.hex([code])))"
        if asleep {
            try transport.wakeUp()
            asleep = false
        }
        var attempt = 0
        while true {
            transport.discardInput()
            trace?("> \(frame)")
            try transport.write(bytes)
            commandsSent += 1
            var decoder = PN532FrameDecoder()
            let ack: PN532Frame?
            do {
                ack = try readFrame(&decoder, expected: 6, timeout: ackTimeoutMilliseconds)
            } catch {
                guard error.code == .garbled, attempt < retries else { throw error }
                attempt += 1
                continue
            }
            switch ack {
            case .ack?: break
            case .syntaxError?:
                throw PN532Error(.syntaxError, "the PN532 on \(transport.name) rejected \(what) (syntax error frame)")
            case nil, .nack?:
                guard attempt < retries else {
                    throw PN532Error(
                        .timeout,
                        "the PN532 on \(transport.name) did not acknowledge \(what) within \(ackTimeoutMilliseconds) ms"
                            + " (\(attempt + 1) tries): check the port, the wiring, the interface switches and the speed"
                    )
                }
                attempt += 1
                continue
            case .information?:
                throw PN532Error(.garbled, "the PN532 on \(transport.name) answered \(what) without an ACK first")
            }
            return try answer(code, what, &decoder, timeout: timeoutMilliseconds ?? answerTimeoutMilliseconds)
        }
    }

    private func answer(
        _ code: UInt8, _ what: String, _ decoder: inout PN532FrameDecoder, timeout: Int
    ) throws(PN532Error) -> [UInt8] {
        var nacks = 0
        while true {
            let frame: PN532Frame?
            do {
                frame = try readFrame(&decoder, expected: 272, timeout: timeout)
            } catch {
                guard error.code == .garbled, nacks < retries else { throw error }
                nacks += 1
                decoder.reset()
                try transport.write(PN532Frame.nack.encoded)
                continue
            }
            switch frame {
            case nil:
                // Abort the command so the chip is ready for the next one (UM0701-02 §6.2.1.3).
                try? transport.write(PN532Frame.ack.encoded)
                throw PN532Error(
                    .timeout,
                    "the PN532 on \(transport.name) acknowledged \(what) but did not answer within \(timeout) ms")
            case .syntaxError?:
                throw PN532Error(.syntaxError, "the PN532 on \(transport.name) rejected \(what) (syntax error frame)")
            case .ack?, .nack?:
                continue
            case .information(let tfi, let data)?:
                guard tfi == PN532Frame.pn532ToHost, let first = data.first, first == code &+ 1 else {
                    guard nacks < retries else {
                        throw PN532Error(
                            .garbled,
                            "the PN532 on \(transport.name) answered \(what) with \(PN532Frame.information(tfi: tfi, data: data))"
                        )
                    }
                    nacks += 1
                    try transport.write(PN532Frame.nack.encoded)
                    continue
                }
                trace?("< \(PN532Frame.information(tfi: tfi, data: data))")
                if code == 0x16 { asleep = true }
                return Array(data.dropFirst())
            }
        }
    }

    /// Reads until one frame decodes; nil when nothing (more) arrives within `timeout`.
    private func readFrame(
        _ decoder: inout PN532FrameDecoder, expected: Int, timeout: Int
    ) throws(PN532Error) -> PN532Frame? {
        var seen = 0
        while true {
            do {
                if let f = try decoder.next() { return f }
            } catch {
                throw PN532Error(.garbled, "the PN532 on \(transport.name) sent a garbled frame: \(error)")
            }
            let bytes = try transport.read(expected: expected, timeoutMilliseconds: timeout)
            if bytes.isEmpty { return nil }
            seen += bytes.count
            if seen > maxNoise {
                throw PN532Error(
                    .garbled,
                    "\(seen) bytes from \(transport.name) without a PN532 frame: is this a PN532, at this speed?")
            }
            decoder.append(bytes)
        }
    }

    /// Sends an ACK, which aborts the command in progress (UM0701-02 §6.2.1.3), e.g. a waiting TgInitAsTarget.
    package func abort() throws(PN532Error) { try transport.write(PN532Frame.ack.encoded) }

    /// Reads the answer to a command that was acknowledged earlier but answers later (target mode), waiting up to
    /// `timeoutMilliseconds`; nil when none arrived.
    package func lateAnswer(_ code: UInt8, timeoutMilliseconds: Int) throws(PN532Error) -> [UInt8]? {
        var decoder = carried
        carried = PN532FrameDecoder()
        guard let frame = try readFrame(&decoder, expected: 272, timeout: timeoutMilliseconds) else {
            carried = decoder  // a frame that was arriving completes on the next wait
            return nil
        }
        guard case .information(PN532Frame.pn532ToHost, let data) = frame, data.first == code &+ 1 else {
            throw PN532Error(.garbled, "the PN532 on \(transport.name) sent \(frame) instead of the answer to \(code)")
        }
        return Array(data.dropFirst())
    }

    /// Sends a command and returns once it is acknowledged, leaving its answer for ``lateAnswer(_:timeoutMilliseconds:)``.
    package func start(_ code: UInt8, _ parameters: [UInt8]) throws(PN532Error) {
        if asleep {
            try transport.wakeUp()
            asleep = false
        }
        transport.discardInput()
        try transport.write(PN532Frame.command(code, parameters).encoded)
        commandsSent += 1
        var decoder = PN532FrameDecoder()
        guard try readFrame(&decoder, expected: 6, timeout: ackTimeoutMilliseconds) == .ack else {
            throw PN532Error(
                .timeout,
                "the PN532 on \(transport.name) did not acknowledge \(Self.name(of: code)) (\(PN532Frame.hex([code])))")
        }
        carried = decoder
    }

    /// Command names for messages (UM0701-02 chapter 7).
    package static func name(of code: UInt8) -> String {
        switch code {
        case 0x00: return "Diagnose"
        case 0x02: return "GetFirmwareVersion"
        case 0x04: return "GetGeneralStatus"
        case 0x06: return "ReadRegister"
        case 0x08: return "WriteRegister"
        case 0x10: return "SetSerialBaudRate"
        case 0x12: return "SetParameters"
        case 0x14: return "SAMConfiguration"
        case 0x16: return "PowerDown"
        case 0x32: return "RFConfiguration"
        case 0x40: return "InDataExchange"
        case 0x42: return "InCommunicateThru"
        case 0x44: return "InDeselect"
        case 0x4A: return "InListPassiveTarget"
        case 0x52: return "InRelease"
        case 0x54: return "InSelect"
        case 0x60: return "InAutoPoll"
        case 0x86: return "TgGetData"
        case 0x8C: return "TgInitAsTarget"
        case 0x8E: return "TgSetData"
        default: return "command"
        }
    }
}
