internal import OpenNFCBytes

/// The same NFC-A durations as ``NFCAAir/exchange(command:answerBytes:answered:rate:label:)`` and
/// ``NFCAAir/selection(uid:sak:wakeUp:)``, summed without building the frames: a simulated field asks for the total
/// of every level-3 exchange, activation and release, and only a trace wants the frames themselves
/// (docs/PERFORMANCE.md, "Sessions"). The formulas and their sources are those of NFCAAirTime.swift; the tests hold
/// each total to the sum of the frames it stands for.
extension NFCAAir {
    /// `exchange(command: withCRC(command), answerBytes:answered:rate:).total()`: the reader frame of `command`
    /// (given without CRC) after the least card → reader delay, and, when `answered`, the FDT and the answer of
    /// `answerBytes` bytes (nil: a 4-bit answer).
    package static func exchangeTotal(
        commandWithoutCRC command: [UInt8], answerBytes: Int?, answered: Bool, rate: BitRate = .kbps106
    ) -> AirTime {
        let sent = cardToReaderDelay + standardFrame(bytes: command.count + 2, rate: rate)
        guard answered else { return sent }
        var crc = CRC.crcAInitial
        for b in command { crc = CRC.crcAUpdate(crc, b) }
        // The frame's last byte is the CRC's high byte (CRC_A travels LSB first); its parity bit is the last bit.
        let answer = answerBytes.map { standardFrame(bytes: $0, rate: rate) } ?? nibbleFrame(rate: rate)
        return sent + readerToCardDelay(lastBit: parityBit(UInt8(crc >> 8))) + answer
    }

    /// `selection(uid:sak:wakeUp:).total()`: WUPA (or REQA) and ATQA, then per cascade level ANTICOLLISION, the UID
    /// CLn, SELECT and SAK (ISO/IEC 14443-3 §6.4).
    package static func selectionTotal(uid: [UInt8], sak: UInt8, wakeUp: Bool = true) -> AirTime {
        let command: UInt8 = wakeUp ? 0x52 : 0x26
        var total = shortFrame + readerToCardDelay(lastBit: lastBit(ofShortFrame: command)) + standardFrame(bytes: 2)
        // The cascade levels of selection(uid:sak:wakeUp:): 1, 2 or 3 by the UID's length.
        let levels =
            switch uid.count {
            case 7: 2
            case 10: 3
            default: 1
            }
        for level in 0..<levels {
            // The UID's part at this level: (first byte, count), and whether the cascade tag 88 leads it.
            let part: (start: Int, count: Int, cascadeTag: Bool) =
                level < levels - 1 ? (3 * level, 3, true) : (3 * level, levels == 1 ? min(4, uid.count) : 4, false)
            let select: UInt8 = level == 0 ? 0x93 : level == 1 ? 0x95 : 0x97
            // ANTICOLLISION (`93 20`) and the UID CLn answer (4 bytes and BCC).
            total = total + cardToReaderDelay + standardFrame(bytes: 2)
            total = total + readerToCardDelay(lastBit: parityBit(0x20)) + standardFrame(bytes: 5)
            // SELECT: `93 70`, the UID CLn with its BCC, CRC_A.
            var crc = CRC.crcAUpdate(CRC.crcAUpdate(CRC.crcAInitial, select), 0x70)
            var bcc: UInt8 = 0
            if part.cascadeTag {
                crc = CRC.crcAUpdate(crc, 0x88)
                bcc ^= 0x88
            }
            for i in part.start..<part.start + part.count {
                crc = CRC.crcAUpdate(crc, uid[i])
                bcc ^= uid[i]
            }
            crc = CRC.crcAUpdate(crc, bcc)
            let selectBytes = 2 + (part.cascadeTag ? 1 : 0) + part.count + 1 + 2
            total = total + cardToReaderDelay + standardFrame(bytes: selectBytes)
            // SAK (1 byte and CRC_A) after the FDT that follows SELECT's last bit.
            total = total + readerToCardDelay(lastBit: parityBit(UInt8(crc >> 8))) + standardFrame(bytes: 3)
        }
        return total
    }
}

extension AirTimeModel {
    /// `exchange(command, answer:, target:, isoDEP: false).total()` for a level-3 NFC-A target (not ISO-DEP), without
    /// building the frames.
    package func nfcALevel3ExchangeTotal(_ command: [UInt8], answer: RFResponse?) -> AirTime {
        let (answerBytes, answered) = Self.nfcALevel3Answer(command, answer)
        return NFCAAir.exchangeTotal(
            commandWithoutCRC: command, answerBytes: answerBytes, answered: answered, rate: nfcARate)
    }

    /// The bytes of a level-3 NFC-A answer as it travels (nil: a 4-bit answer) and whether there was one: a MIFARE
    /// Classic nonce (the answer to AUTH `60`/`61` + block) travels without CRC_A (NXP MF1S50yyX §10.1); a one-byte
    /// `60` is GET_VERSION, answered with CRC_A.
    static func nfcALevel3Answer(_ command: [UInt8], _ answer: RFResponse?) -> (bytes: Int?, answered: Bool) {
        let answerCRC = command.count == 2 && (command[0] == 0x60 || command[0] == 0x61) ? 0 : 2
        switch answer {
        case .frame(let b)?: return (b.count + answerCRC, true)
        case .ack?, .nak?: return (nil, true)
        case nil: return (nil, false)
        }
    }

    /// `activation(target, isoDEP:).total()`, summed without building the frames for a level-3 NFC-A target.
    package func activationTotal(_ target: RFTarget, isoDEP: Bool) -> AirTime {
        if case .nfcA(let a) = target.activation, a.type1 == nil, !(isoDEP && a.ats != nil) {
            return NFCAAir.selectionTotal(uid: a.uid, sak: a.selRes ?? 0)
        }
        return activation(target, isoDEP: isoDEP).total()
    }

    /// `release(target, isoDEP:).total()` for a target of `technology` that runs ISO-DEP or not: HLTA's total for a
    /// level-3 NFC-A target is computed without building its frame.
    package func releaseTotal(technology: RFTechnology, isoDEP: Bool) -> AirTime {
        switch technology {
        case .nfcA where !isoDEP:
            return NFCAAir.exchangeTotal(
                commandWithoutCRC: [0x50, 0x00], answerBytes: nil, answered: false, rate: nfcARate)
        case .nfcA, .nfcB:
            return release(technology: technology, isoDEP: isoDEP).total()
        case .nfcF, .nfcV:
            return .zero
        }
    }
}

extension Array where Element == AirFrame {
    /// Every gap and frame, end to end (the `Sequence` form, without its generic iteration).
    package func total() -> AirTime {
        var cycles: UInt64 = 0
        for f in self { cycles += f.gap.cycles + f.air.cycles }
        return AirTime(cycles: cycles)
    }
}
