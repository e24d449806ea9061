internal import OpenNFCBytes

/// Air time of ISO/IEC 14443-4 (ISO-DEP) exchanges: block framing, chaining, the waiting times of the ATS.
///
/// | Quantity | Value | Source |
/// |---|---|---|
/// | I-block | PCB, INF, CRC (no CID, no NAD here): INF + 3 bytes | ISO/IEC 14443-4 §7.1 |
/// | R(ACK) | PCB + CRC: 3 bytes, one per chained block, from the receiver | ISO/IEC 14443-4 §7.5.2 |
/// | S(WTX) | PCB, WTXM, CRC: 4 bytes each way | ISO/IEC 14443-4 §7.3 |
/// | FSC / FSD | 16, 24, 32, 40, 48, 64, 96, 128, 256 bytes for FSCI/FSDI 0…8 (default FSCI 2) | ISO/IEC 14443-4 §5.2.3 |
/// | FWT | (256·16/fc)·2^FWI, FWI 0…14, default 4 | ISO/IEC 14443-4 §7.2 |
/// | SFGT | (256·16/fc)·2^SFGI, SFGI 0 (none) by default | ISO/IEC 14443-4 §5.2.5 |
/// | WTX | FWT × WTXM (1…59) for the one exchange | ISO/IEC 14443-4 §7.3 |
///
/// FWT and WTX bound how long a card *may* think; the model puts the least gap the technology requires before each
/// answer (the card's own processing is the card's time, not the air's). The block number of the first block of an
/// exchange is taken as 0; the real alternation moves an NFC-A FDT by at most 64/fc.
package enum ISODEPAir {
    /// The frame sizes of FSCI/FSDI 0…8 (ISO/IEC 14443-4 §5.2.3); larger codes are read as 256.
    package static func frameSize(code: Int) -> Int {
        let sizes = [16, 24, 32, 40, 48, 64, 96, 128, 256]
        return code >= 0 && code < sizes.count ? sizes[code] : 256
    }

    /// 256·16/fc = 4096/fc, the unit of FWT and SFGT.
    package static let waitingUnit = AirTime(cycles: 4096)

    /// FWT = (256·16/fc)·2^FWI (ISO/IEC 14443-4 §7.2); FWI 15 is RFU and read as 4.
    package static func frameWaitingTime(fwi: Int) -> AirTime {
        let i = (0...14).contains(fwi) ? fwi : 4
        return AirTime(cycles: 4096 << UInt64(i))
    }

    /// SFGT = (256·16/fc)·2^SFGI; SFGI 0 means none (ISO/IEC 14443-4 §5.2.5).
    package static func startUpGuardTime(sfgi: Int) -> AirTime {
        (1...14).contains(sfgi) ? AirTime(cycles: 4096 << UInt64(sfgi)) : .zero
    }

    /// FWT extended by S(WTX) with multiplier `wtxm` (1…59) for one exchange (ISO/IEC 14443-4 §7.3).
    package static func extendedWaitingTime(fwi: Int, wtxm: Int) -> AirTime {
        frameWaitingTime(fwi: fwi) * max(1, min(59, wtxm))
    }

    /// The WTXM of each S(WTX) request a card sends when it needs `processing` to answer (ISO/IEC 14443-4 §7.3):
    /// none when FWT covers it; otherwise, before each waiting time runs out, a request for as many FWTs as are
    /// still missing, at most 59 (WTXM 1…59, §7.3), until the waiting times granted cover the processing. The
    /// extended waiting time FWT × WTXM counts from the reader's S(WTX) response.
    package static func waitingTimeExtensions(processing: AirTime, parameters p: Parameters) -> [UInt8] {
        let fwt = p.frameWaitingTime.cycles
        var covered = fwt
        var out: [UInt8] = []
        while covered < processing.cycles {
            let missing = (processing.cycles - covered + fwt - 1) / fwt
            let m = min(59, missing)
            out.append(UInt8(m))
            covered += fwt * m
        }
        return out
    }

    /// The card's ISO-DEP parameters, from its ATS (NFC-A) or ATQB protocol info (NFC-B).
    package struct Parameters: Sendable, Hashable {
        /// Largest frame the card accepts, CRC included.
        package var fsc: Int
        /// Largest frame the reader accepts, CRC included (an iPhone announces 256).
        package var fsd: Int
        package var fwi: Int
        package var sfgi: Int

        package init(fsc: Int = 32, fsd: Int = 256, fwi: Int = 4, sfgi: Int = 0) {
            self.fsc = fsc
            self.fsd = fsd
            self.fwi = fwi
            self.sfgi = sfgi
        }

        /// From an ATS `TL T0 [TA] [TB] [TC] …` (ISO/IEC 14443-4 §5.2): FSCI in T0's low nibble, FWI and SFGI in
        /// TB(1). A short or absent ATS gives the defaults.
        package init(ats: [UInt8]?, fsd: Int = 256) {
            self.init(fsd: fsd)
            guard let ats, ats.count >= 2 else { return }
            let t0 = ats[1]
            fsc = ISODEPAir.frameSize(code: Int(t0 & 0x0F))
            var i = 2
            if t0 & 0x10 != 0 { i += 1 }
            if t0 & 0x20 != 0, i < ats.count {
                fwi = Int(ats[i] >> 4)
                sfgi = Int(ats[i] & 0x0F)
            }
        }

        /// From ATQB protocol info (ISO/IEC 14443-3 §7.9.4): Max_Frame_Size in byte 2's high nibble, FWI in byte
        /// 3's high nibble (SFGI from the optional fourth byte's high nibble).
        package init(protocolInfo: [UInt8], fsd: Int = 256) {
            self.init(fsd: fsd)
            if protocolInfo.count >= 2 { fsc = ISODEPAir.frameSize(code: Int(protocolInfo[1] >> 4)) }
            if protocolInfo.count >= 3 { fwi = Int(protocolInfo[2] >> 4) }
            if protocolInfo.count >= 4 { sfgi = Int(protocolInfo[3] >> 4) }
        }

        package var frameWaitingTime: AirTime { ISODEPAir.frameWaitingTime(fwi: fwi) }
    }

    /// How the blocks of one technology travel: a frame's air time and the gap before it, given its bytes.
    package struct Carrier: Sendable {
        /// Air time of a frame of these bytes (CRC included).
        package var frame: @Sendable (_ bytes: Int) -> AirTime
        /// The least gap before a card frame that answers this reader frame.
        package var beforeAnswer: @Sendable (_ readerFrame: [UInt8]) -> AirTime
        /// The least gap before a reader frame that follows a card frame.
        package var beforeCommand: AirTime
        /// Appends the technology's CRC to a block.
        package var crc: @Sendable (_ block: [UInt8]) -> [UInt8]

        package init(
            frame: @escaping @Sendable (Int) -> AirTime, beforeAnswer: @escaping @Sendable ([UInt8]) -> AirTime,
            beforeCommand: AirTime, crc: @escaping @Sendable ([UInt8]) -> [UInt8]
        ) {
            self.frame = frame
            self.beforeAnswer = beforeAnswer
            self.beforeCommand = beforeCommand
            self.crc = crc
        }
    }

    /// The blocks one exchange puts on the air: the command's I-blocks (chained when longer than FSC − 3, each
    /// chained block acknowledged by the card's R(ACK)), then the answer's (chained when longer than FSD − 3,
    /// each acknowledged by the reader's R(ACK)), and an S(WTX) request and its response before the answer for each
    /// of `wtxm` (their WTXM; `wtx` more with WTXM 1). `answerBytes` nil: the card never answered (only the
    /// command's blocks).
    package static func exchange(
        command: [UInt8], answerBytes: Int?, parameters p: Parameters, carrier c: Carrier, wtx: Int = 0,
        wtxm: [UInt8] = []
    ) -> [AirFrame] {
        var frames: [AirFrame] = []
        var blockNumber: UInt8 = 0
        let commandChunks = chunks(command.count, size: max(1, p.fsc - 3))
        var offset = 0
        for (k, n) in commandChunks.enumerated() {
            let last = k == commandChunks.count - 1
            let pcb: UInt8 = 0x02 | blockNumber | (last ? 0 : 0x10)
            let block = c.crc([pcb] + command[offset..<offset + n])
            offset += n
            let label = commandChunks.count > 1 ? "I-block \(k + 1)/\(commandChunks.count)" : "I-block"
            frames.append(AirFrame(.reader, gap: c.beforeCommand, air: c.frame(block.count), label: label))
            if !last {
                let ack = c.crc([0xA2 | blockNumber])
                frames.append(
                    AirFrame(.tag, gap: c.beforeAnswer(block), air: c.frame(ack.count), label: "R(ACK)"))
                blockNumber ^= 1
            } else {
                guard let answerBytes else { return frames }
                var previous = block
                for m in wtxm + [UInt8](repeating: 1, count: wtx) {
                    // S(WTX) without CID: PCB `F2`, INF the WTXM; the reader's response repeats it (§7.3).
                    let request = c.crc([0xF2, m & 0x3F])
                    frames.append(
                        AirFrame(
                            .tag, bytes: request, gap: c.beforeAnswer(previous), air: c.frame(request.count),
                            label: "S(WTX)"))
                    frames.append(
                        AirFrame(
                            .reader, bytes: request, gap: c.beforeCommand, air: c.frame(request.count),
                            label: "S(WTX) answer"))
                    previous = request
                }
                let answerChunks = chunks(answerBytes, size: max(1, p.fsd - 3))
                for (j, m) in answerChunks.enumerated() {
                    let final = j == answerChunks.count - 1
                    let label = answerChunks.count > 1 ? "I-block \(j + 1)/\(answerChunks.count)" : "I-block"
                    frames.append(
                        AirFrame(.tag, gap: c.beforeAnswer(previous), air: c.frame(m + 3), label: label))
                    if !final {
                        blockNumber ^= 1
                        let ack = c.crc([0xA2 | blockNumber])
                        frames.append(
                            AirFrame(.reader, gap: c.beforeCommand, air: c.frame(ack.count), label: "R(ACK)"))
                        previous = ack
                    }
                }
            }
        }
        return frames
    }

    /// Chunk sizes of `count` bytes in pieces of at most `size` (one empty chunk for nothing).
    static func chunks(_ count: Int, size: Int) -> [Int] {
        guard count > 0 else { return [0] }
        var left = count
        var out: [Int] = []
        while left > 0 {
            out.append(min(size, left))
            left -= size
        }
        return out
    }

    /// NFC-A's carrier of ISO-DEP blocks: standard frames with CRC_A, the FDT of ISO/IEC 14443-3 §6.2.1.
    package static func nfcA(rate: NFCAAir.BitRate = .kbps106) -> Carrier {
        Carrier(
            frame: { NFCAAir.standardFrame(bytes: $0, rate: rate) },
            beforeAnswer: { NFCAAir.readerToCardDelay(lastBit: NFCAAir.lastBit(ofFrame: $0)) },
            beforeCommand: NFCAAir.cardToReaderDelay, crc: { CRC.appendingCRCA($0) })
    }

    /// NFC-B's carrier: characters with start and stop bits, SOF/EOF, TR0 + TR1 before the card, TR2 after it.
    package static let nfcB = Carrier(
        frame: { NFCBAir.frame(bytes: $0) }, beforeAnswer: { _ in NFCBAir.readerToCardDelay },
        beforeCommand: NFCBAir.cardToReaderDelay, crc: { NFCBAir.withCRC($0) })

    /// RATS (`E0 xx` + CRC_A) and the ATS of `atsLength` bytes (+ CRC_A), then SFGT before the reader's first
    /// block, returned as the gap of a zero-length marker frame so the sum stays end to end.
    package static func rats(atsLength: Int, parameters p: Parameters) -> [AirFrame] {
        let rats = CRC.appendingCRCA([0xE0, 0x80])
        var frames = [
            AirFrame(
                .reader, gap: NFCAAir.cardToReaderDelay, air: NFCAAir.standardFrame(bytes: 4), label: "RATS"),
            AirFrame(
                .tag, gap: NFCAAir.readerToCardDelay(lastBit: NFCAAir.lastBit(ofFrame: rats)),
                air: NFCAAir.standardFrame(bytes: atsLength + 2), label: "ATS"),
        ]
        let sfgt = startUpGuardTime(sfgi: p.sfgi)
        if sfgt > .zero { frames.append(AirFrame(.reader, gap: sfgt, air: .zero, label: "SFGT")) }
        return frames
    }
}
