import Foundation
import OpenCoreNFC
import OpenCoreNFCTesting
import OpenNFCSystem
import Testing

// Code written for Core NFC that depends on how Apple's classes are declared (parity audit §3 items 6, 7, 9, 11):
// subclasses of NFCNDEFPayload and NFCISO7816APDU, and NFCReaderError bridged from NSError. The subclasses below
// are written as an iOS app writes them; if our declarations drift from Apple's, this file stops compiling.

/// A subclass with its own designated initializer over Apple's four-argument designated initializer. On iOS such a
/// subclass implements only `required init?(coder:)` (NSSecureCoding's), nothing for the chunk-size initializer.
final class LabelledPayload: NFCNDEFPayload {
    let label: String

    init(label: String, text: String) {
        self.label = label
        super.init(format: .media, type: Data("text/plain".utf8), identifier: Data(), payload: Data(text.utf8))
    }

    required init?(coder: NSCoder) {
        self.label = "unarchived"
        super.init(coder: coder)
    }
}

/// A subclass whose designated initializer calls the chunk-size one.
final class ChunkedPayload: NFCNDEFPayload {
    init(bytes: Data) {
        super.init(
            format: .unknown, type: Data(), identifier: Data(), payload: bytes, chunkSize: 4)
    }

    required init?(coder: NSCoder) { super.init(coder: coder) }
}

/// A subclass that declares no initializer: it inherits all of them.
final class PlainPayload: NFCNDEFPayload {}

/// An APDU subclass overriding Apple's read-only `open var` fields with computed properties.
final class GetDataAPDU: NFCISO7816APDU {
    override var instructionClass: UInt8 { 0x80 }
    override var instructionCode: UInt8 { 0xCA }
    override var expectedResponseLength: Int { 256 }

    init() {
        super.init(
            instructionClass: 0, instructionCode: 0, p1Parameter: 0, p2Parameter: 0, data: Data(),
            expectedResponseLength: -1)
    }
}

@Suite struct AppleSignatureTests {
    @Test func payloadSubclassesBuildEncodeAndComeFromTheFactories() throws {
        let labelled = LabelledPayload(label: "mine", text: "hi")
        #expect(labelled.label == "mine" && labelled.typeNameFormat == .media && labelled.payload == Data("hi".utf8))
        // The four-argument initializer means no chunking; the chunk-size one chunks (NDEF 1.0 §2.3.3).
        let chunked = ChunkedPayload(bytes: Data([1, 2, 3, 4, 5, 6, 7, 8, 9]))
        #expect(NFCNDEFMessage(records: [labelled]).length == 3 + 10 + 2)
        #expect(NFCNDEFMessage(records: [chunked]).length == 3 * 3 + 9)

        // The factories return the receiving class: inherited initializers, or init?(coder:) for a subclass with
        // its own designated initializers.
        let plain = try #require(PlainPayload.wellKnownTypeURIPayload(string: "https://example.com/a"))
        #expect(type(of: plain) == PlainPayload.self)
        #expect(plain.wellKnownTypeURIPayload()?.absoluteString == "https://example.com/a")
        let viaCoder = try #require(
            LabelledPayload.wellKnownTypeTextPayload(string: "hello", locale: Locale(identifier: "en")))
        #expect(type(of: viaCoder) == LabelledPayload.self && viaCoder.label == "unarchived")
        #expect(viaCoder.wellKnownTypeTextPayload().0 == "hello")
        #expect(viaCoder.type == Data("T".utf8) && viaCoder.typeNameFormat == .nfcWellKnown)
        let base = try #require(NFCNDEFPayload.wellKnownTypeURIPayload(url: URL(string: "tel:123")!))
        #expect(type(of: base) == NFCNDEFPayload.self && base.payload == Data([0x05]) + Data("123".utf8))
    }

    @Test func readerErrorBridgesFromNSError() throws {
        let ns = NSError(
            domain: "NFCError", code: 102,
            userInfo: [NSLocalizedDescriptionKey: "Tag response error", NFCISO15693TagResponseErrorKey: 15])
        // init(_nsError:) keeps the NSError; _nsError gives the same object back.
        let wrapped = NFCReaderError(_nsError: ns)
        #expect(wrapped.code == .readerTransceiveErrorTagResponseError)
        #expect(wrapped._nsError === ns)
        #expect(wrapped.userInfo[NFCISO15693TagResponseErrorKey] as? Int == 15)

        // The casts an app writes on iOS.
        let asAny: any Error = ns
        let cast = try #require(asAny as? NFCReaderError)
        #expect(cast.code == .readerTransceiveErrorTagResponseError && cast._nsError === ns)
        #expect((ns as Any) as? NFCReaderError == wrapped)
        var caught: NFCReaderError.Code?
        do { throw ns } catch let error as NFCReaderError { caught = error.code } catch {}
        #expect(caught == .readerTransceiveErrorTagResponseError)
        #expect(NFCReaderError.readerTransceiveErrorTagResponseError ~= asAny)

        // Other domains, and codes Core NFC does not define, do not bridge.
        #expect((NSError(domain: "nfcd", code: 102) as any Error) as? NFCReaderError == nil)
        #expect((NSError(domain: "NFCError", code: 999) as any Error) as? NFCReaderError == nil)
        // init(_nsError:) of an undefined code keeps the raw code; `code` reads 1 (docs/DIFFERENCES.md).
        let odd = NFCReaderError(_nsError: NSError(domain: "NFCError", code: 999))
        #expect(odd.errorCode == 999 && odd.code == .readerErrorUnsupportedFeature)
        #expect(!(NFCReaderError.readerErrorUnsupportedFeature ~= odd))

        // And back: as NSError / as AnyObject give an NSError in the NFCError domain.
        let made = NFCReaderError(.readerSessionInvalidationErrorSessionTimeout)
        let object = made as AnyObject
        let back = try #require(object as? NSError)
        #expect(back.domain == "NFCError" && back.code == 201 && back.localizedDescription == "Session timeout")
        #expect((made as NSError).code == 201 && made._nsError.domain == NFCErrorDomain)
        #expect((back as any Error) as? NFCReaderError == made)
    }

    @Test func readerErrorPrintsAsIOSPrintsIt() {
        // iOS logs (public reports): Error Domain=NFCError Code=100 "Tag connection lost"
        // UserInfo={NSLocalizedDescription=Tag connection lost}
        let lost = NFCReaderError(.readerTransceiveErrorTagConnectionLost)
        #expect(
            "\(lost)"
                == #"Error Domain=NFCError Code=100 "Tag connection lost" UserInfo={NSLocalizedDescription=Tag connection lost}"#
        )
        let asError: any Error = NFCReaderError(.readerSessionInvalidationErrorUserCanceled)
        #expect(
            "\(asError)"
                == #"Error Domain=NFCError Code=200 "Session invalidated by user" UserInfo={NSLocalizedDescription=Session invalidated by user}"#
        )
        #expect(String(describing: asError) == "\(asError)" && String(reflecting: asError) == "\(asError)")
        // Extra keys follow the description, sorted; true prints as NSNumber's 1.
        let response = NFCReaderError(
            .readerTransceiveErrorTagResponseError,
            userInfo: [NFCTagResponseUnexpectedLengthErrorKey: true, NFCISO15693TagResponseErrorKey: 15])
        #expect(
            "\(response)"
                == #"Error Domain=NFCError Code=102 "Tag response error" UserInfo={NSLocalizedDescription=Tag response error, ISO15693TagResponseErrorCode=15, TagResponseInvalidLength=1}"#
        )
    }

    @Test func aSessionsErrorPrintsAsOnIOS() {
        let (phone, _) = Fixtures.phone(AppConfiguration(readerSessionFormats: ["TAG"]))
        let app = TagSessionRecorder()
        let session = phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app, queue: nil)
        }
        session.begin()
        phone.settle()
        session.invalidate()
        phone.settle()
        #expect(
            app.invalidationError.map { "\($0)" }
                == #"Error Domain=NFCError Code=200 "Session invalidated by user" UserInfo={NSLocalizedDescription=Session invalidated by user}"#
        )
    }

    @Test func apduSubclassOverridesAreWhatIsSent() {
        // The card answers GET DATA (80 CA) with its first AID byte; the APDU was built with CLA 00 INS 00, so the
        // answer proves the session sent the overridden fields.
        let aid: [UInt8] = [0xF0, 0x01, 0x02, 0x03, 0x04, 0x05]
        let (phone, _) = Fixtures.phone(
            AppConfiguration(readerSessionFormats: ["TAG"], iso7816SelectIdentifiers: ["F00102030405"]))
        phone.put(Fixtures.type4(applets: [aid]))
        let app = TagSessionRecorder()
        let log = Unchecked(Box<[String]>([]))
        app.onDetect = { session, tags in
            guard case .iso7816(let tagObject) = tags[0] else { return }
            nonisolated(unsafe) let tag = tagObject
            session.connect(to: tags[0]) { _ in
                let apdu = GetDataAPDU()
                log.value.value.append("\(apdu.instructionClass) \(apdu.instructionCode) \(apdu.p1Parameter)")
                tag.sendCommand(apdu: apdu) { data, sw1, sw2, error in
                    log.value.value.append("\([UInt8](data)) \(String(format: "%02X%02X", sw1, sw2)) \(error == nil)")
                    session.invalidate()
                }
            }
        }
        let session = phone.run {
            NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: app, queue: nil)
        }
        session.begin()
        phone.settle()
        #expect(log.value.value == ["128 202 0", "[240] 9000 true"])
    }
}
