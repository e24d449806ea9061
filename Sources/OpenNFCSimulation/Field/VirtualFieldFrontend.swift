package import OpenNFCRF

/// An ``RFFrontend`` over a ``VirtualField``: what the reader procedures, the simulated Core NFC sessions and the
/// CLI's `sim:` device talk to.
///
/// | Capability | Behaviour |
/// |---|---|
/// | Poll | every technology of the request it supports, with its parameters; WUPA/WUPB by default (halted tags are found again), REQA/REQB when ``pollsWithWakeUp`` is false |
/// | Level-3 frames | frames without CRC; ACK/NAK nibbles as ``RFResponse/ack`` / ``RFResponse/nak(_:)`` |
/// | ISO-DEP | each exchange carries one whole payload (APDU or DESFire native command); block framing, chaining and WTX are abstracted, so no block-level errors occur |
/// | Size limits | ``RFCapabilities/maxCommandSize`` / ``RFCapabilities/maxResponseSize`` enforced: `frameTooLong` naming the limit ("answer of 540 bytes exceeds the frontend's 258-byte limit"), never a timeout; ``RFCapabilities/unlimited`` applies none |
/// | No raw frames | with `rawFrames == false`, exchanges with level-3 NFC-A targets throw `unsupported`; NFC-F and NFC-V exchanges need the `felica` / `nfcV` frame modes |
/// | Errors | `notActivated`, `linkLost` (tag left), `timeout` (tag silent), injected `transmission`/`timeout` |
package final class VirtualFieldFrontend: RFFrontend {
    /// The field this frontend's antenna covers.
    package let field: VirtualField
    /// Sizes and technologies this frontend enforces (see ``RFCapabilities/simulatedIPhone``).
    package var capabilities: RFCapabilities
    /// Poll with WUPA (true, the default: halted tags answer) or REQA (false).
    package var pollsWithWakeUp = true
    private var active: RFTarget?

    package init(field: VirtualField, capabilities: RFCapabilities = .simulatedIPhone) {
        self.field = field
        self.capabilities = capabilities
    }

    /// The tags in the field that answer the request, for the technologies this frontend supports (WUPA/WUPB, or
    /// REQA/REQB when ``pollsWithWakeUp`` is false).
    package func poll(_ request: RFPollRequest) throws(RFError) -> [RFTarget] {
        var r = request.restricted(to: capabilities.technologies)
        if !pollsWithWakeUp {
            r.nfcA?.wakeUp = false
            r.nfcB?.wakeUp = false
        }
        return field.poll(r)
    }

    /// Selects the target in the field; `unsupported` for a technology this frontend lacks.
    package func activate(_ target: RFTarget, isoDEP: Bool) throws(RFError) -> RFTarget {
        guard capabilities.technologies.contains(target.technology) else {
            throw RFError(.unsupported, "this frontend does not speak \(target.technology.rawValue)")
        }
        active = nil
        let t = try field.activate(target.handle, isoDEP: isoDEP)
        active = t
        return t
    }

    /// Sends one frame or ISO-DEP payload, enforcing the size limits and `rawFrames`.
    package func exchange(_ command: [UInt8]) throws(RFError) -> RFResponse {
        guard let target = active, field.activeHandle == target.handle else {
            active = nil
            throw RFError(.notActivated, "no tag is activated")
        }
        if !capabilities.rawFrames && !target.isISODEP && target.technology == .nfcA {
            throw RFError(.unsupported, "this frontend cannot send raw frames to a level-3 tag")
        }
        if target.technology == .nfcF && !capabilities.frameModes.contains(.felica) {
            throw RFError(.unsupported, "this frontend cannot carry FeliCa frames")
        }
        if target.technology == .nfcV && !capabilities.frameModes.contains(.nfcV) {
            throw RFError(.unsupported, "this frontend cannot carry ISO 15693 requests")
        }
        if command.count > capabilities.maxCommandSize {
            throw RFError(
                .frameTooLong,
                "command of \(command.count) bytes exceeds the frontend's \(capabilities.maxCommandSize)-byte limit")
        }
        let response: RFResponse
        do {
            response = try field.exchange(command)
        } catch {
            if error.code == .linkLost || error.code == .notActivated { active = nil }
            throw error
        }
        if case .frame(let bytes) = response, bytes.count > capabilities.maxResponseSize {
            throw RFError(
                .frameTooLong,
                "answer of \(bytes.count) bytes exceeds the frontend's \(capabilities.maxResponseSize)-byte limit")
        }
        // A raw RATS turns a level-3 activation into ISO-DEP.
        if !target.isISODEP, command.count == 2, command[0] == 0xE0, case .frame(let ats) = response {
            active?.ats = ats
        }
        return response
    }

    /// HLTA / DESELECT of the active target.
    package func deactivate() {
        if active != nil { field.halt() }
        active = nil
    }
}

extension RFCapabilities {
    /// No reader-side limit at all: every frame reaches the chip and every answer comes back whole (a FAST_READ of a
    /// whole NTAG216 answers 924 bytes). What `opennfc tag send` talks to the chip through, so that it shows what
    /// the datasheet says rather than what one reader carries.
    package static let unlimited = RFCapabilities(
        maxCommandSize: Int.max, maxResponseSize: Int.max, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF, .nfcV])

    /// An iPhone-like frontend (Core NFC): all four technologies, raw frames through `sendMiFareCommand`.
    ///
    /// Sizes: 261-byte commands (the largest short APDU: header 4, Lc 1, 255 data bytes, Le 1) and 258-byte answers
    /// (256 data bytes and SW1 SW2). Apple does not document the limit for raw frames; 256 + 2 also matches the
    /// FSD of 256 that iPhones announce in RATS, and bounds FAST_READ to 64 pages per frame.
    package static let simulatedIPhone = RFCapabilities(
        maxCommandSize: 261, maxResponseSize: 258, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF, .nfcV])

    /// An ACR122U-like frontend (PN532 behind a CCID reader): NFC-A, NFC-B and NFC-F, no ISO 15693; raw frames via
    /// InCommunicateThru.
    ///
    /// Sizes: 252 bytes each way. A PN532 normal information frame carries at most 255 bytes after its length
    /// byte: TFI, command code and target number (InDataExchange) or status byte (the answer) leave 252.
    package static let simulatedACR122U = RFCapabilities(
        maxCommandSize: 252, maxResponseSize: 252, rawFrames: true, technologies: [.nfcA, .nfcB, .nfcF])
}
