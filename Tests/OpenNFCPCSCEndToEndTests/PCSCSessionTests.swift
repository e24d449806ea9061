import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCBytes
import OpenNFCDevices
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport
import Testing

extension EndToEndSuite {
    /// Core NFC sessions, unchanged, with `OPENCORENFC_DEVICE=pcsc:<reader>`: the device string opens the PC/SC backend
    /// from the device registry, and app code reads and writes tags that our card server presents on the virtual reader.
    @Suite struct PCSCSessionTests {
        func system(_ reader: String, _ configuration: AppConfiguration = AppConfiguration()) throws -> NFCSystem {
            let environment = ["OPENCORENFC_DEVICE": "pcsc:\(reader)"]
            let opened = try DeviceRegistry.open(environment["OPENCORENFC_DEVICE"]!)
            return NFCSystem.make(opened, configuration: configuration, idleJumps: false)
        }

        @Test func ndefReaderSessionReadsAnNTAG() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let slot = try EmulatedSlot(try ntag215())
            defer { try? slot.remove() }

            let system = try system(slot.reader)
            let app = NDEFMessageRecorder()
            let ended = Ended()
            app.onInvalidate = { _, _ in ended.signal() }
            NFCSystem.$current.withValue(system) {
                NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: true).begin()
            }
            let error = try ended.wait(app.invalidationError)
            #expect((error as? NFCReaderError)?.code == .readerSessionInvalidationErrorFirstNDEFTagRead)
            #expect(app.messages.count == 1)
            let record = try #require(app.messages.first?.records.first)
            #expect(record.typeNameFormat == .nfcWellKnown)
            #expect([UInt8](record.type) == [0x54])
            #expect([UInt8](record.payload) == Array(textHi[4...]))  // 02 "en" "hi"
        }

        @Test func ndefReaderSessionWritesAnNTAG() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let tag = try ntag215()
            let slot = try EmulatedSlot(tag)
            defer { try? slot.remove() }

            let system = try system(slot.reader)
            let app = NDEFTagRecorder()
            let ended = Ended()
            app.onInvalidate = { _, _ in ended.signal() }
            let payload = NFCNDEFPayload.wellKnownTypeURIPayload(string: "https://example.org/pcsc")!
            app.onDetect = { session, tags in
                session.connect(to: tags[0]) { error in
                    guard error == nil else { return session.invalidate(errorMessage: "connect failed") }
                    tags[0].writeNDEF(NFCNDEFMessage(records: [payload])) { error in
                        if let error {
                            session.invalidate(errorMessage: "write failed: \(error)")
                        } else {
                            session.invalidate()
                        }
                    }
                }
            }
            NFCSystem.$current.withValue(system) {
                NFCNDEFReaderSession(delegate: app, queue: nil, invalidateAfterFirstRead: false).begin()
            }
            let error = try ended.wait(app.invalidationError)
            #expect((error as? NFCReaderError)?.code == .readerSessionInvalidationErrorUserCanceled)
            // URI record, prefix 04 = "https://" (NFC Forum URI RTD §3.2.2).
            let rest = Array("example.org/pcsc".utf8)
            let expected: [UInt8] = [0xD1, 0x01, UInt8(rest.count + 1), 0x55, 0x04] + rest
            #expect(slot.server.withCard { _ in TagFile.ndefMessage(of: tag) } == expected)
        }

        @Test func tagReaderSessionSendsAPDUsToAType4Card() throws {
            let lock = SlotLock()
            defer { withExtendedLifetime(lock) {} }
            let t4 = try type4()
            let slot = try EmulatedSlot(t4, slot: 1)
            defer { try? slot.remove() }

            let system = try system(
                slot.reader,
                AppConfiguration(readerSessionFormats: ["TAG"], iso7816SelectIdentifiers: ["D2760000850101"]))
            let app = TagSessionRecorder()
            let ended = Ended()
            app.onInvalidate = { _, _ in ended.signal() }
            let answers = Answers()
            app.onDetect = { session, tags in
                guard case .iso7816(let tag) = tags[0] else { return session.invalidate(errorMessage: "not ISO 7816") }
                session.connect(to: tags[0]) { _ in
                    // SELECT the CC file, then READ BINARY of its 15 bytes (T4T 1.0 §5.1.2).
                    let select = NFCISO7816APDU(data: Data([0x00, 0xA4, 0x00, 0x0C, 0x02, 0xE1, 0x03]))!
                    tag.sendCommand(apdu: select) { _, sw1, sw2, _ in
                        answers.append([sw1, sw2])
                        let read = NFCISO7816APDU(data: Data([0x00, 0xB0, 0x00, 0x00, 0x0F]))!
                        tag.sendCommand(apdu: read) { data, sw1, sw2, _ in
                            answers.append([UInt8](data) + [sw1, sw2])
                            session.invalidate()
                        }
                    }
                }
            }
            NFCSystem.$current.withValue(system) {
                NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app, queue: nil).begin()
            }
            _ = try ended.wait(app.invalidationError)
            #expect(answers.all == [[0x90, 0x00], t4.capabilityContainerFile + [0x90, 0x00]])
        }
    }
}

/// Waits (blocking this test's thread, never the cooperative pool's progress) until the session is invalidated; the
/// session's own 60 s limit bounds the wait.
final class Ended: @unchecked Sendable {
    private let semaphore = DispatchSemaphore(value: 0)
    func signal() { semaphore.signal() }
    func wait(_ error: @autoclosure () -> (any Error)?) throws -> (any Error)? {
        guard semaphore.wait(timeout: .now() + 70) == .success else {
            throw EndToEndFailure(description: "the session did not end within 70 s")
        }
        return error()
    }
}

struct EndToEndFailure: Error, CustomStringConvertible {
    var description: String
}

/// Answers collected on the session's queue.
final class Answers: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [[UInt8]] = []
    func append(_ a: [UInt8]) { lock.withLock { list.append(a) } }
    var all: [[UInt8]] { lock.withLock { list } }
}
