import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCNDEF
import OpenNFCSimulation
import OpenNFCSystem
import OpenNFCTestSupport

/// Tags and phones for the session tests.
enum Fixtures {
    static let uidA: [UInt8] = [0x04, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6]
    static let uidB: [UInt8] = [0x04, 0xB1, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6]

    /// A URI record message, encoded.
    static func uriMessage(_ uri: String) -> [UInt8] { OpenNFCTestSupport.uriMessage(uri) }

    /// A phone over the fake procedures, with the given configuration.
    static func phone(
        _ configuration: AppConfiguration = AppConfiguration(), hasReader: Bool = true
    ) -> (VirtualPhone, FakePlatform) {
        let platform = FakePlatform()
        return (VirtualPhone(configuration: configuration, hasReader: hasReader, platform: platform), platform)
    }

    /// A Type 2 tag whose (fake) NDEF area holds `message`.
    static func ntag(
        _ uid: [UInt8], on platform: FakePlatform, message: [UInt8], capacity: Int = 496, readOnly: Bool = false
    ) -> Type2Tag {
        platform.setNDEF(uid: uid, .init(message: message, capacity: capacity, readOnly: readOnly))
        return try! Type2Tag.factory(.ntag215, uid: uid)
    }

    /// A Type 4 card hosting applets with these AIDs (each answers `90 00` with its first AID byte as data).
    static func type4(uid: [UInt8] = [0x02, 0x11, 0x22, 0x33], applets aids: [[UInt8]]) -> Type4Tag {
        let applets: [any ISO7816Applet] = aids.map { aid in
            ISO7816ClosureApplet(aid: aid) { _ in ISO7816Response(data: [aid[0]], status: .success) }
        }
        return try! Type4Tag(uid: uid, applets: applets)
    }
}

/// A queue whose callbacks can tell they run on it.
final class LabelledQueue: @unchecked Sendable {
    let queue = DispatchQueue(label: "test.session.queue")
    private let key = DispatchSpecificKey<Int>()
    init() { queue.setSpecific(key: key, value: 1) }
    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == 1 }
}

/// Calls the deprecated `NFCTagReaderSession.init?(pollingOption:delegate:queue:)` (iOS 26.4) without a deprecation
/// warning: the call sits in a deprecated witness reached through a non-deprecated protocol requirement, so the
/// tests that pin its rules still build with warnings as errors.
enum LegacyTagSession {
    static func make(
        _ option: NFCTagReaderSession.PollingOption, _ delegate: any NFCTagReaderSessionDelegate,
        queue: DispatchQueue? = nil
    ) -> NFCTagReaderSession? {
        func call<F: LegacyTagSessionFactory>(_ f: F.Type) -> NFCTagReaderSession? { f.make(option, delegate, queue) }
        return call(DeprecatedTagSessionFactory.self)
    }
}

protocol LegacyTagSessionFactory {
    static func make(
        _ option: NFCTagReaderSession.PollingOption, _ delegate: any NFCTagReaderSessionDelegate,
        _ queue: DispatchQueue?
    ) -> NFCTagReaderSession?
}

enum DeprecatedTagSessionFactory: LegacyTagSessionFactory {
    @available(*, deprecated)
    static func make(
        _ option: NFCTagReaderSession.PollingOption, _ delegate: any NFCTagReaderSessionDelegate,
        _ queue: DispatchQueue?
    ) -> NFCTagReaderSession? {
        NFCTagReaderSession(pollingOption: option, delegate: delegate, queue: queue)
    }
}
