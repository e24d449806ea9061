import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

/// NFC Forum Type 5 (ISO 15693) tags through Core NFC's NDEF reader session on the simulated iPhone, against every
/// virtual Type 5 chip: Core NFC reads Types 1–5 NDEF, and hands an NDEF session's delegate the tag as an
/// `NFCISO15693Tag` that is also an `NFCNDEFTag`.
@Suite struct Type5SessionTests {
    static func uid(_ p: ISO15693ChipProfile) -> [UInt8] {
        Array((p.uidPrefix + [0x0A, 0x0B, 0x0C, 0x0D, 0x0E]).prefix(8))
    }

    /// The NDEF capacity of a factory-formatted chip (NFC Forum T5T 1.0 §4.3: MLEN × 8 bytes of T5T area, the CC,
    /// and an NDEF TLV header of 2 bytes, or 4 when the value may reach 255 bytes).
    static func capacity(_ p: ISO15693ChipProfile) -> Int {
        let cc = ISO15693Tag.factoryCC(p)
        let area = (cc.count == 4 ? Int(cc[2]) : Int(cc[6]) << 8 | Int(cc[7])) * 8
        let room = area - cc.count - 2
        return room - 2 >= 0xFF ? area - cc.count - 4 : room
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func anNDEFSessionReadsEveryChip(profile: ISO15693ChipProfile) throws {
        let phone = VirtualPhone()
        phone.put(try ISO15693Tag.factory(profile, uid: Self.uid(profile), holding: RealStackTests.uri("t5.example")))
        let app = phone.readFirstNDEF()
        #expect(
            app.events == [
                .becameActive, .detectedNDEFs(1), .invalidated(.readerSessionInvalidationErrorFirstNDEFTagRead),
            ])
        #expect(app.messages.first?.records.first?.wellKnownTypeURIPayload()?.absoluteString == "https://t5.example")
    }

    @Test(arguments: ISO15693ChipProfile.all)
    func anNDEFTagSessionQueriesWritesReadsAndLocksEveryChip(profile: ISO15693ChipProfile) throws {
        let phone = VirtualPhone()
        let chip = try ISO15693Tag.factory(profile, uid: Self.uid(profile))
        phone.put(chip)
        let app = NDEFTagRecorder()
        let log = LogBox()
        let written = RealStackTests.uri("written.t5.example")
        nonisolated(unsafe) let message = NFCNDEFMessage(data: Data(written))!
        app.onDetect = { session, tags in
            nonisolated(unsafe) let tag = tags[0]
            if let t5 = tag as? any NFCISO15693Tag {
                log.append("iso15693 \(t5.identifier.map { String(format: "%02X", $0) }.joined())")
                log.append("manufacturer \(t5.icManufacturerCode) serial \(t5.icSerialNumber.count)")
            }
            session.connect(to: tag) { _ in
                tag.readNDEF { _, e in
                    log.append("empty read \((e as? NFCReaderError)?.code.rawValue ?? 0)")
                    tag.queryNDEFStatus { status, capacity, _ in
                        log.append("status \(status.rawValue) capacity \(capacity)")
                        tag.writeNDEF(message) { e in
                            log.append("write \(e == nil)")
                            tag.readNDEF { m, _ in
                                log.append("read \(m?.records.first?.wellKnownTypeURIPayload()?.absoluteString ?? "-")")
                                tag.writeLock { e in
                                    log.append("lock \(e == nil)")
                                    tag.writeNDEF(message) { e in
                                        log.append("write again \((e as? NFCReaderError)?.code.rawValue ?? 0)")
                                        tag.queryNDEFStatus { status, _, _ in
                                            log.append("status \(status.rawValue)")
                                            session.invalidate()
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        phone.run { NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin() }
        phone.settle()
        let uid = Self.uid(profile).map { String(format: "%02X", $0) }.joined()
        #expect(
            log.lines == [
                "iso15693 \(uid)", "manufacturer \(Int(profile.uidPrefix[1])) serial 6", "empty read 403",
                "status 2 capacity \(Self.capacity(profile))", "write true", "read https://written.t5.example",
                "lock true", "write again 400", "status 3",
            ])
        #expect(chip.ndefMessage == written)
        #expect(!chip.lockedBlocks.isEmpty && chip.lockedBlocks.contains(0))
    }

    @Test func anUnformattedChipIsNotSupportedAndSkippedInReadOnlyMode() throws {
        let phone = VirtualPhone()
        phone.put(try ISO15693Tag(profile: .icodeSLIX, uid: Self.uid(.icodeSLIX)))
        let app = phone.readFirstNDEF()
        #expect(app.events == [.becameActive])
        #expect(app.messages.isEmpty)
    }
}
