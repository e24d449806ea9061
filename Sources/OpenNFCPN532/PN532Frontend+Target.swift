/// Target mode (UM0701-02 §7.3.14–17): the PN532 as an ISO/IEC 14443-4 card (PICC) at 106 kbit/s type A, its
/// APDUs answered by the host. This presents a virtual tag (`opennfc emulate --device pn532:…`) or an app's
/// `CardSession` (the `pn532:` device's card emulation) to a real reader through a real PN532.
///
/// | Step | Frames |
/// |---|---|
/// | SetParameters: AutomaticATR_RES, ISO14443-4 PICC emulation (bit 5), AutomaticRATS | 1 |
/// | TgInitAsTarget PassiveOnly + PICCOnly, SENS_RES, NFCID1t (3 bytes after the chip's `08`), SEL_RES `20`, historical bytes; its answer waits for a reader to activate the card | 1 |
/// | per APDU: TgGetData (waits for the reader's command), TgSetData (the answer) | 2 |
/// | the reader lets go: TgGetData's status `29` ends the session | — |
package struct PN532CardEmulation: Sendable {
    /// NFCID1t: the chip prefixes `08` (a random UID, ISO/IEC 14443-3 §6.5.4).
    package var uid3: [UInt8]
    package var sensRes: UInt16
    package var historicalBytes: [UInt8]
    /// How long to wait for a reader to come, and between two of its commands.
    package var waitMilliseconds: Int

    package init(
        uid3: [UInt8] = [0x12, 0x34, 0x56], sensRes: UInt16 = 0x0004, historicalBytes: [UInt8] = [],
        waitMilliseconds: Int = 30_000
    ) {
        self.uid3 = uid3
        self.sensRes = sensRes
        self.historicalBytes = historicalBytes
        self.waitMilliseconds = waitMilliseconds
    }
}

extension PN532Frontend {
    /// Emulates a card until the reader releases it, the handler returns nil, or nobody comes; returns how many
    /// APDUs were answered.
    ///
    /// TgInitAsTarget's answer is awaited in slices of `waitMilliseconds`: after each, `keepWaiting` says whether
    /// to go on waiting (the chip stays ready for a reader, nothing is sent) or to give up (the command is aborted
    /// with an ACK and a `timeout` error thrown). `activated` runs once a reader has activated the card, before its
    /// first command. Between two commands of the reader the wait is `waitMilliseconds` once.
    package func emulateCard(
        _ emulation: PN532CardEmulation, activated: () -> Void = {}, keepWaiting: () -> Bool = { false },
        answer handler: ([UInt8]) -> [UInt8]?
    ) throws(PN532Error) -> Int {
        guard emulation.uid3.count == 3 else {
            throw PN532Error(.unsupported, "NFCID1t has 3 bytes (the PN532 supplies the first, 08)")
        }
        _ = try driver.call(0x12, [0x34])
        defer { _ = try? driver.call(0x12, [0x14]) }
        let mifare: [UInt8] =
            [UInt8(emulation.sensRes & 0xFF), UInt8(emulation.sensRes >> 8)] + emulation.uid3 + [0x20]
        let params: [UInt8] =
            [0x05] + mifare + [UInt8](repeating: 0, count: 18) + [UInt8](repeating: 0, count: 10) + [0x00]
            + [UInt8(emulation.historicalBytes.count)] + emulation.historicalBytes
        try driver.start(0x8C, params)
        var activation: [UInt8]?
        while activation == nil {
            activation = try driver.lateAnswer(0x8C, timeoutMilliseconds: emulation.waitMilliseconds)
            if activation == nil && !keepWaiting() {
                try? driver.abort()
                throw PN532Error(
                    .timeout, "no reader activated the emulated card within \(emulation.waitMilliseconds) ms")
            }
        }
        guard let mode = activation?.first, mode & 0x03 == 0x00 else {
            throw PN532Error(
                .garbled, "TgInitAsTarget answered \(PN532Frame.hex(activation ?? [])), not a 106 A activation")
        }
        activated()
        var served = 0
        while true {
            try driver.start(0x86, [])
            guard let got = try driver.lateAnswer(0x86, timeoutMilliseconds: emulation.waitMilliseconds) else {
                try? driver.abort()
                return served
            }
            guard let status = got.first else { throw PN532Error(.garbled, "TgGetData answered nothing") }
            if status & 0x3F == 0x29 || status & 0x3F == 0x27 { return served }
            guard status & 0x3F == 0 else {
                throw PN532Error(.status(status), "TgGetData: \(PN532Error.meaning(ofStatus: status))")
            }
            guard let response = handler(Array(got.dropFirst())) else { return served }
            let set = try driver.call(0x8E, response)
            guard set.first.map({ $0 & 0x3F == 0 }) == true else {
                return served  // the reader left while the answer was on its way
            }
            served += 1
        }
    }
}
