import OpenNFCBytes
import OpenNFCRF
import Testing

/// The totals a simulated field times level-3 NFC-A exchanges, activations and releases with, computed without
/// building frames (NFCAAirTotals.swift), held to the sum of the frames they stand for over deterministic sweeps.
@Suite struct AirTimeTotalsTests {
    /// Deterministic bytes (a linear congruential sequence) for the sweeps.
    private static func bytes(_ count: Int, seed: Int) -> [UInt8] {
        var x = UInt32(truncatingIfNeeded: seed &* 2_654_435_761 &+ 1)
        return (0..<count).map { _ in
            x = x &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: x >> 24)
        }
    }

    @Test func crcAUpdateContinuesTheCRC() {
        for seed in 0..<200 {
            let data = Self.bytes(seed % 40, seed: seed)
            #expect(data.reduce(CRC.crcAInitial, CRC.crcAUpdate) == CRC.crcA(data))
        }
        // ISO/IEC 14443-3 Annex B: CRC_A of 00 00 is 1EA0 (sent A0 1E).
        #expect([UInt8]([0, 0]).reduce(CRC.crcAInitial, CRC.crcAUpdate) == 0x1EA0)
    }

    @Test func level3ExchangeTotalsAreTheSumOfTheirFrames() {
        let target = RFTarget.nfcA(uid: [0x04, 0x11, 0x22, 0x33, 0x44, 0x55, 0x66], sensRes: 0x0044, selRes: 0)
        for rate in NFCAAir.BitRate.allCases {
            let model = AirTimeModel(nfcARate: rate)
            for seed in 0..<300 {
                var command = Self.bytes(1 + seed % 20, seed: seed)
                if seed % 7 == 0 { command = [0x60, UInt8(seed & 0xFF)] }  // a MIFARE Classic AUTH: nonce without CRC
                let answers: [RFResponse?] = [nil, .ack, .nak(0), .frame(Self.bytes(seed % 18, seed: seed + 1))]
                for answer in answers {
                    let frames = model.exchange(command, answer: answer, target: target, isoDEP: false)
                    #expect(model.nfcALevel3ExchangeTotal(command, answer: answer) == frames.total())
                    #expect(model.nfcALevel3Exchange(command, answer: answer) == frames)
                }
            }
        }
    }

    @Test func selectionTotalsAreTheSumOfTheirFrames() {
        for seed in 0..<300 {
            for length in [4, 7, 10] {
                let uid = Self.bytes(length, seed: seed)
                let sak = UInt8(truncatingIfNeeded: seed)
                for wakeUp in [true, false] {
                    let frames = NFCAAir.selection(uid: uid, sak: sak, wakeUp: wakeUp)
                    #expect(NFCAAir.selectionTotal(uid: uid, sak: sak, wakeUp: wakeUp) == frames.total())
                }
                let target = RFTarget.nfcA(uid: uid, sensRes: 0x0044, selRes: sak)
                let model = AirTimeModel.standard
                #expect(model.activationTotal(target, isoDEP: false) == model.activation(target, isoDEP: false).total())
            }
        }
        // An ISO-DEP target activated with RATS, and a Type 1 target, take the frames' way; the totals still agree.
        let isoDEP = RFTarget.nfcA(
            uid: [1, 2, 3, 4], sensRes: 0x0004, selRes: 0x20, ats: [0x05, 0x78, 0x80, 0x70, 0x02])
        let model = AirTimeModel.standard
        #expect(model.activationTotal(isoDEP, isoDEP: true) == model.activation(isoDEP, isoDEP: true).total())
        #expect(model.activationTotal(isoDEP, isoDEP: false) == model.activation(isoDEP, isoDEP: false).total())
    }

    @Test func releaseTotalsAreTheSumOfTheirFrames() {
        for rate in NFCAAir.BitRate.allCases {
            let model = AirTimeModel(nfcARate: rate)
            for technology in RFTechnology.allCases {
                for isoDEP in [false, true] {
                    let frames = model.release(technology: technology, isoDEP: isoDEP)
                    #expect(model.releaseTotal(technology: technology, isoDEP: isoDEP) == frames.total())
                }
            }
        }
        // HLTA at 106 kbit/s: 1172/fc, then 4 bytes (50 00 + CRC_A) of 38 etu = 4864 cycles; no answer.
        #expect(AirTimeModel.standard.releaseTotal(technology: .nfcA, isoDEP: false).cycles == 1172 + 4864)
    }

    @Test func theArrayTotalIsTheSequenceTotal() {
        let frames = NFCAAir.selection(uid: [1, 2, 3, 4, 5, 6, 7], sak: 0)
        #expect(frames.total() == AnySequence(frames).total())
        #expect(frames.total() == frames.map(\.span).reduce(.zero, +))
    }
}
