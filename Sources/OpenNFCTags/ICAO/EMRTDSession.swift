package import OpenNFCRF

/// Where APDUs go: an RF frontend (ISO-DEP), a PC/SC card, a Core NFC tag. One call per APDU, the answer with
/// its status word.
package protocol EMRTDTransport: AnyObject {
    func transmit(_ apdu: [UInt8], name: String) throws(PassportError) -> [UInt8]
    /// The largest response APDU (data and status word) one exchange carries. Above 258 (a short answer's 256 data
    /// bytes and SW1 SW2) the reader may use extended-length READ BINARY when the chip's EF.ATR/INFO allows it.
    var maxResponseLength: Int { get }
}

extension EMRTDTransport {
    /// Short APDUs only, unless a transport says otherwise.
    package var maxResponseLength: Int { 258 }
}

/// APDUs over an ``RFFrontend`` whose target is activated (ISO-DEP).
package final class FrontendTransport: EMRTDTransport {
    let frontend: any RFFrontend
    package init(frontend: any RFFrontend) { self.frontend = frontend }

    /// What the frontend delivers from one exchange (``RFCapabilities/maxResponseSize``).
    package var maxResponseLength: Int { frontend.capabilities.maxResponseSize }

    package func transmit(_ apdu: [UInt8], name: String) throws(PassportError) -> [UInt8] {
        let answer: RFResponse
        do { answer = try frontend.exchange(apdu) } catch {
            let tag = TagError.rf(error, during: name)
            throw PassportError(.transport, "\(name): \(error)", tagError: tag)
        }
        guard case .frame(let b) = answer, b.count >= 2 else {
            throw PassportError(.transport, "\(name) answered \(answer), not a response APDU")
        }
        return b
    }
}

/// A conversation with an eMRTD: plain until BAC or PACE installs secure messaging, then every command protected
/// and every answer's MAC checked. Counts the APDUs sent.
package final class EMRTDSession {
    package let transport: any EMRTDTransport
    /// The active secure messaging, nil while plain.
    package var secureMessaging: SecureMessaging?
    /// APDUs sent so far.
    package private(set) var apduCount = 0

    package init(transport: any EMRTDTransport) { self.transport = transport }

    /// Sends `command`, protected when secure messaging is active; an SM failure ends secure messaging.
    package func send(_ command: CommandAPDU, name: String) throws(PassportError) -> ResponseAPDUData {
        apduCount += 1
        guard var sm = secureMessaging else {
            let raw = try transport.transmit(command.bytes, name: name)
            return ResponseAPDUData(
                data: Array(raw.dropLast(2)), sw: UInt16(raw[raw.count - 2]) << 8 | UInt16(raw[raw.count - 1]))
        }
        let raw = try transport.transmit(try sm.wrap(command), name: name)
        do {
            let r = try sm.unwrap(raw, command: name)
            secureMessaging = sm
            return r
        } catch {
            secureMessaging = nil
            throw error
        }
    }

    /// Sends and requires `90 00`; an error status is ``PassportError/Code/commandRejected``.
    package func expectSuccess(_ command: CommandAPDU, name: String) throws(PassportError) -> [UInt8] {
        let r = try send(command, name: name)
        guard r.isSuccess else { throw PassportError(.commandRejected, "\(name) was refused", statusWord: r.sw) }
        return r.data
    }
}
