/// The frames an exchange, an activation or a release puts on the air, per technology, as the procedures above the
/// ``RFFrontend`` see them (frames without CRC, ISO-DEP payloads, FeliCa frames without LEN, ISO 15693 requests
/// without CRC): each technology's file (NFCAAirTime.swift, ISODEPAirTime.swift, NFCBAirTime.swift,
/// NFCFAirTime.swift, NFCVAirTime.swift) holds its formulas and cites its standard; docs/TIMING.md explains the
/// model and what it leaves out.
///
/// Every duration is the least the standards allow: frames as long as their bits, gaps as short as the frame delay
/// times permit. What a card spends thinking (EEPROM writes, cryptography) and what a reader and its host add are
/// not air time; ``ReaderProfile`` adds the reader's and host's share.
package struct AirTimeModel: Sendable, Hashable {
    /// The NFC-A bit rate (an iPhone and the PC/SC readers here run at 106 kbit/s).
    package var nfcARate: NFCAAir.BitRate
    /// The FeliCa bit rate.
    package var felicaRate: NFCFAir.BitRate
    /// The reader's ISO 15693 coding.
    package var nfcVCoding: NFCVAir.Coding
    /// The reader's FSD (largest frame it takes; an iPhone announces 256 in RATS).
    package var fsd: Int

    package init(
        nfcARate: NFCAAir.BitRate = .kbps106, felicaRate: NFCFAir.BitRate = .kbps212,
        nfcVCoding: NFCVAir.Coding = .oneOf4, fsd: Int = 256
    ) {
        self.nfcARate = nfcARate
        self.felicaRate = felicaRate
        self.nfcVCoding = nfcVCoding
        self.fsd = fsd
    }

    /// 106 kbit/s NFC-A and NFC-B, 212 kbit/s FeliCa, 1-of-4 ISO 15693, FSD 256.
    package static let standard = AirTimeModel()

    /// The ISO-DEP parameters of an ISO-DEP target, nil for a level-3 target (`isoDEP` overrides what the target
    /// says, for a field that knows how it activated the tag).
    package func isoDEPParameters(_ target: RFTarget, isoDEP: Bool? = nil) -> ISODEPAir.Parameters? {
        guard isoDEP ?? target.isISODEP else { return nil }
        switch target.activation {
        case .nfcA(let a): return ISODEPAir.Parameters(ats: a.ats, fsd: fsd)
        case .nfcB(let b): return ISODEPAir.Parameters(protocolInfo: b.protocolInfo, fsd: fsd)
        case .nfcF, .nfcV: return nil
        }
    }

    /// The frames of one exchange with an activated target: `command` as the procedures send it, `answer` as they
    /// receive it (nil when the target stayed silent or the exchange failed). An ISO-DEP card that needs
    /// `processing` beyond its FWT asks for it with S(WTX) before answering
    /// (``ISODEPAir/waitingTimeExtensions(processing:parameters:)``), or with the WTXMs `wtxm` says it sent.
    package func exchange(
        _ command: [UInt8], answer: RFResponse?, target: RFTarget, isoDEP: Bool? = nil, processing: AirTime = .zero,
        wtxm sent: [UInt8]? = nil
    ) -> [AirFrame] {
        let answerBytes: Int?? =
            switch answer {
            case .frame(let b)?: .some(b.count)
            case .ack?, .nak?: .some(nil)
            case nil: .none
            }
        switch target.technology {
        case .nfcA, .nfcB:
            if let p = isoDEPParameters(target, isoDEP: isoDEP) {
                let carrier = target.technology == .nfcA ? ISODEPAir.nfcA(rate: nfcARate) : ISODEPAir.nfcB
                let n: Int? = answerBytes.map { $0 ?? 0 }
                let wtxm =
                    n == nil ? [] : sent ?? ISODEPAir.waitingTimeExtensions(processing: processing, parameters: p)
                return ISODEPAir.exchange(
                    command: command, answerBytes: n, parameters: p, carrier: carrier, wtxm: wtxm)
            }
            if target.technology == .nfcB {
                return NFCBAir.exchange(
                    commandBytes: command.count + 2, answerBytes: answerBytes.map { ($0 ?? 0) + 2 })
            }
            return nfcALevel3Exchange(command, answer: answer)
        case .nfcF:
            return NFCFAir.exchange(command: command, answerPayload: answerBytes.map { $0 ?? 0 }, rate: felicaRate)
        case .nfcV:
            return NFCVAir.exchange(request: command, answerBytes: answerBytes.map { $0 ?? 0 }, coding: nfcVCoding)
        }
    }

    /// The frames of one exchange with a level-3 NFC-A target (not ISO-DEP): `command` without CRC, `answer` as
    /// received (nil: silence). Its total is ``nfcALevel3ExchangeTotal(_:answer:)``.
    package func nfcALevel3Exchange(_ command: [UInt8], answer: RFResponse?) -> [AirFrame] {
        let (answerBytes, answered) = Self.nfcALevel3Answer(command, answer)
        return NFCAAir.exchange(
            command: NFCAAir.withCRC(command), answerBytes: answerBytes, answered: answered, rate: nfcARate)
    }

    /// The frames of one NFC-A exchange whose bytes travel as they are (MIFARE Classic under Crypto1: CRC_A and
    /// parity inside the ciphertext): `answerBytes` nil for a 4-bit answer, `answered` false for silence.
    package func enciphered(_ command: [UInt8], answerBytes: Int?, answered: Bool) -> [AirFrame] {
        NFCAAir.exchange(command: command, answerBytes: answerBytes, answered: answered, rate: nfcARate)
    }

    /// Detection, anticollision and selection of `target` (then RATS/ATS or ATTRIB when `isoDEP`): the frames
    /// of one successful activation.
    package func activation(_ target: RFTarget, isoDEP: Bool) -> [AirFrame] {
        switch target.activation {
        case .nfcA(let a):
            if a.type1 != nil {
                // Type 1: WUPA/ATQA, then RID (7 bytes + CRC) and its 6-byte answer (+ CRC) (NFC Forum Digital §8).
                var frames = Array(NFCAAir.selection(uid: [], sak: 0).prefix(2))
                frames += NFCAAir.exchange(
                    command: NFCAAir.withCRC([0x78, 0, 0, 0, 0, 0, 0]), answerBytes: 8, label: "RID")
                return frames
            }
            var frames = NFCAAir.selection(uid: a.uid, sak: a.selRes ?? 0)
            if isoDEP, let ats = a.ats {
                frames += ISODEPAir.rats(atsLength: ats.count, parameters: ISODEPAir.Parameters(ats: ats, fsd: fsd))
            }
            return frames
        case .nfcB(let b):
            return NFCBAir.activation(atqbLength: b.atqb.count, attrib: isoDEP)
        case .nfcF(let f):
            return NFCFAir.activation(requestData: f.systemCode != nil, rate: felicaRate)
        case .nfcV:
            return NFCVAir.activation(coding: nfcVCoding)
        }
    }

    /// Releasing `target`: HLTA (`50 00` + CRC_A, unanswered) for a level-3 NFC-A target, DESELECT (`C2` + CRC)
    /// and its answer for ISO-DEP; nothing for NFC-F and NFC-V, which have no halt here.
    package func release(_ target: RFTarget, isoDEP: Bool? = nil) -> [AirFrame] {
        release(technology: target.technology, isoDEP: isoDEP ?? target.isISODEP)
    }

    /// Releasing a target of `technology` that runs ISO-DEP (`isoDEP`) or not: ``release(_:isoDEP:)``.
    package func release(technology: RFTechnology, isoDEP: Bool) -> [AirFrame] {
        switch technology {
        case .nfcA, .nfcB:
            if isoDEP {
                let frames =
                    technology == .nfcA
                    ? NFCAAir.exchange(command: NFCAAir.withCRC([0xC2]), answerBytes: 3, rate: nfcARate)
                    : NFCBAir.exchange(commandBytes: 3, answerBytes: 3)
                return frames.enumerated().map { i, f in
                    var f = f
                    f.label = i == 0 ? "DESELECT" : "DESELECT answer"
                    return f
                }
            }
            return NFCAAir.exchange(
                command: NFCAAir.withCRC([0x50, 0x00]), answerBytes: nil, answered: false, rate: nfcARate, label: "HLTA"
            )
        case .nfcF, .nfcV:
            return []
        }
    }

    /// The air time of one frame as it travelled (``AirFrame/bytes``, CRC included, and ``AirFrame/lastBits``), by
    /// the formulas of its technology: NFC-A a short frame (7 bits), a 4-bit answer or a standard frame at
    /// ``nfcARate``; NFC-B characters with SOF and EOF; FeliCa from the sync code on (the preamble added) at
    /// ``felicaRate``; ISO 15693 the reader's ``nfcVCoding`` or the card's answer at the rate its request chose
    /// (`highRate`). Field events take no air time.
    package func frame(_ f: AirFrame, technology: RFTechnology, highRate: Bool = true) -> AirTime {
        guard f.isFrame else { return .zero }
        let n = f.bytes.count
        switch technology {
        case .nfcA:
            if n == 1, let bits = f.lastBits, bits < 8 {
                return NFCAAir.bitOrientedFrame(bits: bits, rate: nfcARate)
            }
            return NFCAAir.standardFrame(bytes: n, rate: nfcARate)
        case .nfcB:
            return NFCBAir.frame(bytes: n)
        case .nfcF:
            // Sync code (2), LEN and CRC (2) are in the bytes; the model's overhead counts them with the preamble.
            return NFCFAir.frame(payload: max(0, n - 5), rate: felicaRate)
        case .nfcV:
            return f.event == .reader
                ? NFCVAir.readerFrame(bytes: n, coding: nfcVCoding) : NFCVAir.cardFrame(bytes: n, highRate: highRate)
        }
    }
}
