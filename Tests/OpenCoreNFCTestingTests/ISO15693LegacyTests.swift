import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSimulation
import Testing

/// The iOS 11 ISO 15693 surface (docs/DIFFERENCES.md "iOS 11 ISO 15693 calls"): the configuration classes keep what
/// they are given, and the two legacy calls complete on the session's queue with `readerErrorUnsupportedFeature` (1)
/// on a delivered tag — as Apple's iOS 17.4 header says they do on `NFCTagReaderSession` tags — sending nothing.
@Suite struct ISO15693LegacyTests {
    typealias T = ISO15693TagTests

    @Test func theConfigurationClassesKeepTheirValuesAndCopy() throws {
        let base = NFCTagCommandConfiguration()
        #expect(base.maximumRetries == 0 && base.retryInterval == 0)
        base.maximumRetries = 3
        base.retryInterval = 0.5
        let baseCopy = try #require(base.copy() as? NFCTagCommandConfiguration)
        #expect(baseCopy !== base && baseCopy.maximumRetries == 3 && baseCopy.retryInterval == 0.5)

        let custom = NFCISO15693CustomCommandConfiguration(
            manufacturerCode: 0x04, customCommandCode: 0xB2, requestParameters: nil)
        #expect(custom.requestParameters == Data() && custom.maximumRetries == 0 && custom.retryInterval == 0)
        let retried = NFCISO15693CustomCommandConfiguration(
            manufacturerCode: 0x04, customCommandCode: 0xA5, requestParameters: Data([1, 2]), maximumRetries: 5,
            retryInterval: 0.25)
        let retriedCopy = try #require(retried.copy() as? NFCISO15693CustomCommandConfiguration)
        #expect(retriedCopy !== retried)
        #expect(
            [retriedCopy.manufacturerCode, retriedCopy.customCommandCode, retriedCopy.maximumRetries]
                == [Int]([4, 0xA5, 5]))
        #expect(retriedCopy.requestParameters == Data([1, 2]) && retriedCopy.retryInterval == 0.25)

        let read = NFCISO15693ReadMultipleBlocksConfiguration(range: NSRange(location: 2, length: 6), chunkSize: 3)
        #expect(read.range == NSRange(location: 2, length: 6) && read.chunkSize == 3 && read.maximumRetries == 0)
        let readRetried = NFCISO15693ReadMultipleBlocksConfiguration(
            range: NSRange(location: 0, length: 1), chunkSize: 1, maximumRetries: 2, retryInterval: 1)
        let readCopy = try #require(readRetried.copy() as? NFCISO15693ReadMultipleBlocksConfiguration)
        #expect(readCopy.range.length == 1 && readCopy.maximumRetries == 2 && readCopy.retryInterval == 1)
        // The subclasses are NFCTagCommandConfigurations, as in Apple's class tree.
        let all: [NFCTagCommandConfiguration] = [base, custom, read]
        #expect(all.count == 3)
    }

    @Test func theIOS11CallsFailWith1OnTheSessionQueueAndSendNothing() throws {
        let phone = VirtualPhone(recordsFrames: true)
        phone.put(try ISO15693Tag.factory(.icodeSLIX2, uid: T.uid(.icodeSLIX2)))
        let queue = DispatchQueue(label: "legacy.app")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 15693)
        let app = TagSessionRecorder()
        let log = LogBox()
        app.onDetect = { session, tags in
            guard case .iso15693(let tagObject) = tags.first else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { _ in
                let rfBefore = phone.system.transcript.filter { $0.kind == .rf }.count
                let custom = NFCISO15693CustomCommandConfiguration(
                    manufacturerCode: 0x04, customCommandCode: 0xB2, requestParameters: nil)
                tag.sendCustomCommand(commandConfiguration: custom) { data, error in
                    log.append(
                        "custom \(T.outcome(error)) \(data.count) bytes, queue \(DispatchQueue.getSpecific(key: key) ?? 0)"
                    )
                    let read = NFCISO15693ReadMultipleBlocksConfiguration(
                        range: NSRange(location: 0, length: 4), chunkSize: 2)
                    tag.readMultipleBlock(readConfiguration: read) { data, error in
                        log.append("read \(T.outcome(error)) \(data.count) bytes")
                        let rfAfter = phone.system.transcript.filter { $0.kind == .rf }.count
                        log.append("frames \(rfAfter - rfBefore)")
                        session.invalidate()
                        tag.readMultipleBlock(readConfiguration: read) { _, error in
                            log.append("after invalidate \(T.outcome(error))")
                        }
                    }
                }
            }
        }
        phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso15693), delegate: app, queue: queue).begin()
        }
        phone.settle()
        #expect(
            log.lines == [
                "custom 1 0 bytes, queue 15693", "read 1 0 bytes", "frames 0", "after invalidate 103",
            ])
    }

    @Test func theTagIdentifiersEntitlementIsReadAndChangesNothing() throws {
        let entitlements: PropertyList = .dictionary([
            (key: AppConfiguration.formatsKey, value: .array([.string("TAG")])),
            (key: AppConfiguration.iso15693TagIdentifiersKey, value: .array([.string("E004")])),
        ])
        let c = try AppConfiguration(infoPlist: nil, entitlements: entitlements, profile: .iphone)
        #expect(c.iso15693TagIdentifiers == ["E004"])
        #expect(
            AppConfiguration.iso15693TagIdentifiersKey
                == "com.apple.developer.nfc.readersession.iso15693.tag-identifiers")
        let bad: PropertyList = .dictionary([(key: AppConfiguration.iso15693TagIdentifiersKey, value: .string("E004"))])
        #expect(throws: ConfigurationError.self) {
            try AppConfiguration(infoPlist: nil, entitlements: bad, profile: .iphone)
        }
    }
}
