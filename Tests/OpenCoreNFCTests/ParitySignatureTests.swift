import Foundation
import OpenCoreNFC
import Testing

/// Compile-only bindings of every implemented Core NFC symbol to Apple's exact type. If a name,
/// label, optionality or type drifts from Apple's, this file stops compiling. The runtime test checks raw values.
@Suite struct ParitySignatureTests {
    @Test func rawValuesOfEnumsAndOptions() {
        #expect(__NFCTagType.iso15693.rawValue == 1 && __NFCTagType.feliCa.rawValue == 2)
        #expect(__NFCTagType.iso7816Compatible.rawValue == 3 && __NFCTagType.miFare.rawValue == 4)
        #expect(NFCMiFareFamily.unknown.rawValue == 1 && NFCMiFareFamily.ultralight.rawValue == 2)
        #expect(NFCMiFareFamily.plus.rawValue == 3 && NFCMiFareFamily.desfire.rawValue == 4)
        #expect(NFCNDEFStatus.notSupported.rawValue == 1 && NFCNDEFStatus.readWrite.rawValue == 2)
        #expect(NFCNDEFStatus.readOnly.rawValue == 3)
        #expect(NFCTypeNameFormat.unchanged.rawValue == 6)
        let types: [Any.Type] = [UInt.self, UInt.self, UInt.self, Int.self]
        let actual: [Any.Type] = [
            __NFCTagType.RawValue.self, NFCMiFareFamily.RawValue.self, NFCNDEFStatus.RawValue.self,
            NFCTagReaderSession.PollingOption.RawValue.self,
        ]
        #expect(zip(types, actual).allSatisfy { $0 == $1 })
    }
}

// MARK: - Compile-only bindings (never called)

func bindSessions(
    ndef: NFCNDEFReaderSession, tagSession: NFCTagReaderSession, base: NFCReaderSession,
    protocolSession: any NFCReaderSessionProtocol
) {
    let _: Bool = NFCReaderSession.readingAvailable
    let _: AnyObject? = base.delegate
    let _: DispatchQueue = base.sessionQueue
    let _: Bool = protocolSession.isReady
    let _: String = protocolSession.alertMessage
    let _: () -> Void = protocolSession.begin
    let _: () -> Void = protocolSession.invalidate
    let _: (String) -> Void = protocolSession.invalidate(errorMessage:)
    let _: (any NFCNDEFReaderSessionDelegate, DispatchQueue?, Bool) -> NFCNDEFReaderSession =
        NFCNDEFReaderSession.init(delegate:queue:invalidateAfterFirstRead:)
    let _: () -> Void = ndef.restartPolling
    let _: (any NFCNDEFTag, @escaping @Sendable ((any Error)?) -> Void) -> Void = ndef.connect(to:completionHandler:)
    let _: (any NFCNDEFTag) async throws -> Void = ndef.connect(to:)
    let _: (NFCTagReaderSession.Configuration, any NFCTagReaderSessionDelegate, DispatchQueue?) -> NFCTagReaderSession =
        NFCTagReaderSession.init(configuration:delegate:queue:)
    let _ = NFCTagReaderSession(configuration: .init(pollingOption: .iso14443), delegate: Never.delegate())
    let _: (NFCTagReaderSession.Configuration) -> Void = tagSession.restartPolling(configuration:)
    var c = NFCTagReaderSession.Configuration(pollingOption: .pace, iso7816SelectIdentifiers: ["A0000002471001"])
    c = NFCTagReaderSession.Configuration(pollingOption: .iso18092, feliCaSystemCodes: ["12FC"])
    c.pollingOption = [.iso14443, .iso15693]
    c.iso7816SelectIdentifiers = []
    c.feliCaSystemCodes = []
    let _: NFCTagReaderSession.PollingOption = c.pollingOption
    let _: [String] = c.iso7816SelectIdentifiers + c.feliCaSystemCodes
    let _: NFCTag? = tagSession.connectedTag
    let _: (NFCTag, @escaping @Sendable ((any Error)?) -> Void) -> Void = tagSession.connect(to:completionHandler:)
    let _: (NFCTag) async throws -> Void = tagSession.connect(to:)
    let _: () -> Void = tagSession.restartPolling
    let _: [NFCTagReaderSession.PollingOption] = [.iso14443, .iso15693, .iso18092, .pace]
}

func bindDelegates<D: NFCNDEFReaderSessionDelegate, T: NFCTagReaderSessionDelegate>(_ d: D, _ t: T) {
    let _: (NFCNDEFReaderSession, any Error) -> Void = d.readerSession(_:didInvalidateWithError:)
    let _: (NFCNDEFReaderSession, [NFCNDEFMessage]) -> Void = d.readerSession(_:didDetectNDEFs:)
    let _: (NFCNDEFReaderSession, [any NFCNDEFTag]) -> Void = d.readerSession(_:didDetect:)
    let _: (NFCNDEFReaderSession) -> Void = d.readerSessionDidBecomeActive(_:)
    let _: (NFCTagReaderSession) -> Void = t.tagReaderSessionDidBecomeActive(_:)
    let _: (NFCTagReaderSession, any Error) -> Void = t.tagReaderSession(_:didInvalidateWithError:)
    let _: (NFCTagReaderSession, [NFCTag]) -> Void = t.tagReaderSession(_:didDetect:)
    let _: any NSObjectProtocol = d
}

func bindTags<B: __NFCTag, N: NFCNDEFTag, I: NFCISO7816Tag, M: NFCMiFareTag>(_ b: B, _ n: N, _ i: I, _ m: M) {
    let _: __NFCTagType = b.type
    let _: (any NFCReaderSessionProtocol)? = b.session
    let _: Bool = b.isAvailable
    let _: () -> (any NFCISO15693Tag)? = b.asNFCISO15693Tag
    let _: () -> (any NFCISO7816Tag)? = b.asNFCISO7816Tag
    let _: () -> (any NFCFeliCaTag)? = b.asNFCFeliCaTag
    let _: () -> (any NFCMiFareTag)? = b.asNFCMiFareTag
    let _: Bool = n.isAvailable
    let _: (@escaping @Sendable (NFCNDEFStatus, Int, (any Error)?) -> Void) -> Void = n.queryNDEFStatus(
        completionHandler:)
    let _: () async throws -> (NFCNDEFStatus, Int) = n.queryNDEFStatus
    let _: (@escaping @Sendable (NFCNDEFMessage?, (any Error)?) -> Void) -> Void = n.readNDEF(completionHandler:)
    let _: () async throws -> NFCNDEFMessage = n.readNDEF
    let _: (NFCNDEFMessage, @escaping @Sendable ((any Error)?) -> Void) -> Void = n.writeNDEF(_:completionHandler:)
    let _: (NFCNDEFMessage) async throws -> Void = n.writeNDEF(_:)
    let _: (@escaping @Sendable ((any Error)?) -> Void) -> Void = n.writeLock(completionHandler:)
    let _: () async throws -> Void = n.writeLock
    let _: String = i.initialSelectedAID
    let _: Data = i.identifier
    let _: Data? = i.historicalBytes
    let _: Data? = i.applicationData
    let _: Bool = i.proprietaryApplicationDataCoding
    let _: Bool = i.supportsPACE
    let _: (NFCISO7816APDU, @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void) -> Void =
        i.sendCommand(apdu:completionHandler:)
    let _: (NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) = i.sendCommand(apdu:)
    let _: (NFCISO7816APDU) async throws -> NFCISO7816ResponseAPDU = i.sendCommand(apdu:)
    let _: (NFCISO7816APDU, @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void) -> Void =
        i.sendCommand(apdu:resultHandler:)
    let _: NFCMiFareFamily = m.mifareFamily
    let _: Data = m.identifier
    let _: Data? = m.historicalBytes
    let _: (Data, @escaping @Sendable (Data, (any Error)?) -> Void) -> Void = m.sendMiFareCommand(
        commandPacket:completionHandler:)
    let _: (Data) async throws -> Data = m.sendMiFareCommand(commandPacket:)
    let _: (Data, @escaping @Sendable (Result<Data, any Error>) -> Void) -> Void = m.sendMiFareCommand(
        commandPacket:resultHandler:)
    let _: (NFCISO7816APDU, @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void) -> Void =
        m.sendMiFareISO7816Command(_:completionHandler:)
    let _: (NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) = m.sendMiFareISO7816Command(_:)
    let _: (NFCISO7816APDU) async throws -> NFCISO7816ResponseAPDU = m.sendMiFareISO7816Command(_:)
    let _: (NFCISO7816APDU, @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void) -> Void =
        m.sendMiFareISO7816Command(_:resultHandler:)
    let _: any NSSecureCoding = n
    let _: any NSCopying = n
}

func bindTagEnum(_ tag: NFCTag) {
    let _: Bool = tag.isAvailable
    switch tag {
    case .feliCa(let t): let _: any NFCFeliCaTag = t
    case .iso7816(let t): let _: any NFCISO7816Tag = t
    case .iso15693(let t): let _: any NFCISO15693Tag = t
    case .miFare(let t): let _: any NFCMiFareTag = t
    }
}

func bindAPDUAndErrors(_ apdu: NFCISO7816APDU, _ error: NFCReaderError) {
    let _: (UInt8, UInt8, UInt8, UInt8, Data, Int) -> NFCISO7816APDU =
        NFCISO7816APDU.init(instructionClass:instructionCode:p1Parameter:p2Parameter:data:expectedResponseLength:)
    let _: (Data) -> NFCISO7816APDU? = NFCISO7816APDU.init(data:)
    let _: UInt8 = apdu.instructionClass
    let _: UInt8 = apdu.instructionCode
    let _: UInt8 = apdu.p1Parameter
    let _: UInt8 = apdu.p2Parameter
    let _: Data? = apdu.data
    let _: Int = apdu.expectedResponseLength
    let _: any NSCopying = apdu
    var r = NFCISO7816ResponseAPDU(statusWord1: 0x90, statusWord2: 0, payload: nil)
    r.statusWord1 = 0x6A
    r.statusWord2 = 0x82
    r.payload = Data()
    let _: String = NFCErrorDomain
    let _: String = NFCISO15693TagResponseErrorKey
    let _: String = NFCTagResponseUnexpectedLengthErrorKey
    let _: String = NFCReaderError.errorDomain
    let _: NFCReaderError.Code = error.code
    let _: NFCReaderError.Code = NFCReaderError.readerTransceiveErrorTagConnectionLost
    let _: (NFCReaderError.Code, [String: Any]) -> NFCReaderError = NFCReaderError.init(_:userInfo:)
    let _: [String: Any] = error.errorUserInfo
    let _: any CustomNSError = error
    let _: Int = NFCReaderError.Code.readerErrorUnsupportedFeature.rawValue
}

@available(*, deprecated)
func bindDeprecated() {
    let _ = NFCISO7816ResponseAPDU(statusWord1: 0x90, statusWord2: 0, paylaod: nil)
    // Deprecated in iOS 26.4 (use init(configuration:delegate:queue:)).
    let _:
        (NFCTagReaderSession.PollingOption, any NFCTagReaderSessionDelegate, DispatchQueue?) -> NFCTagReaderSession? =
            NFCTagReaderSession.init(pollingOption:delegate:queue:)
    let _: NFCTagReaderSession? = NFCTagReaderSession(pollingOption: .iso14443, delegate: Never.delegate())
}

extension Never {
    static func delegate() -> any NFCTagReaderSessionDelegate { fatalError("compile-only") }
}

func bindVAS(_ s: NFCVASReaderSession, _ r: NFCVASResponse, _ c: NFCVASCommandConfiguration) {
    let _: ([NFCVASCommandConfiguration], any NFCVASReaderSessionDelegate, DispatchQueue?) -> NFCVASReaderSession =
        NFCVASReaderSession.init(vasCommandConfigurations:delegate:queue:)
    let _: NFCReaderSession = s
    let _: (NFCVASCommandConfiguration.Mode, String, URL?) -> NFCVASCommandConfiguration =
        NFCVASCommandConfiguration.init(vasMode:passTypeIdentifier:url:)
    c.mode = .normal
    c.passTypeIdentifier = "pass.com.example"
    c.url = nil
    let _: any NSCopying = c
    let _: NFCVASResponse.ErrorCode = r.status
    let _: Data = r.vasData
    let _: Data = r.mobileToken
    let _: any NSCopying = r
    let _: Int = NFCVASResponse.ErrorCode.success.rawValue + NFCVASCommandConfiguration.Mode.urlOnly.rawValue
}

func bindVASDelegate<D: NFCVASReaderSessionDelegate>(_ d: D) {
    let _: (NFCVASReaderSession) -> Void = d.readerSessionDidBecomeActive(_:)
    let _: (NFCVASReaderSession, any Error) -> Void = d.readerSession(_:didInvalidateWithError:)
    let _: (NFCVASReaderSession, [NFCVASResponse]) -> Void = d.readerSession(_:didReceive:)
    let _: any NSObjectProtocol = d
}

@available(*, deprecated)
func bindDeprecatedVAS() {
    let _: VASMode = .VASModeURLOnly
    let _: NFCVASCommandConfiguration.Mode = .VASModeNormal
    let _: VASErrorCode = .VASErrorCodeSuccess
    let _: [NFCVASResponse.ErrorCode] = [
        .VASErrorCodeDataNotFound, .VASErrorCodeDataNotActivated, .VASErrorCodeWrongParameters,
        .VASErrorCodeWrongLCField, .VASErrorCodeUserIntervention, .VASErrorCodeIncorrectData,
        .VASErrorCodeUnsupportedApplicationVersion,
    ]
}

func bindPaymentAndBackground(_ activity: NSUserActivity) {
    let _: (any NFCTagReaderSessionDelegate, DispatchQueue?) -> NFCPaymentTagReaderSession =
        NFCPaymentTagReaderSession.init(delegate:queue:)
    let _ = NFCPaymentTagReaderSession(delegate: Never.delegate())
    let _: Bool = NFCPaymentTagReaderSession.readingAvailable
    let _: NFCTagReaderSession = NFCPaymentTagReaderSession(delegate: Never.delegate(), queue: nil)
    let _: [NFCReaderError.Code] = [
        NFCReaderError.paymentTagReaderSessionErrorLocationAuthorizationDenied,
        NFCReaderError.paymentTagReaderSessionErrorLocationServiceRestricted,
        NFCReaderError.paymentTagReaderSessionErrorOnDeviceLocationUnavailable,
    ]
    let _: NFCNDEFMessage = activity.ndefMessagePayload
    let _: String = NSUserActivityTypeBrowsingWeb
    let _: String = activity.activityType
    let _: URL? = activity.webpageURL
}

func bindISO15693ValueTypes() {
    let _: [NFCISO15693RequestFlag] = [
        .dualSubCarriers, .highDataRate, .protocolExtension, .select, .address, .option, .commandSpecificBit8,
    ]
    let _: (UInt8) -> NFCISO15693RequestFlag = NFCISO15693RequestFlag.init(rawValue:)
    let _: [NFCISO15693ResponseFlag] = [
        .error, .responseBufferValid, .finalResponse, .protocolExtension, .blockSecurityStatusBit5,
        .blockSecurityStatusBit6, .waitTimeExtension,
    ]
    let _: (UInt8) -> NFCISO15693ResponseFlag = NFCISO15693ResponseFlag.init(rawValue:)
    let _: (Data, Int, Int, Int, Int, Int) -> NFCISO15693SystemInfo =
        NFCISO15693SystemInfo.init(
            uniqueIdentifier:dataStorageFormatIdentifier:applicationFamilyIdentifier:blockSize:totalBlocks:icReference:)
    var info = NFCISO15693SystemInfo(
        uniqueIdentifier: Data(), dataStorageFormatIdentifier: 0, applicationFamilyIdentifier: 0, blockSize: 4,
        totalBlocks: 28, icReference: 1)
    info.uniqueIdentifier = Data()
    let _: (Data, Int, Int, Int, Int, Int) = (
        info.uniqueIdentifier, info.dataStorageFormatIdentifier, info.applicationFamilyIdentifier, info.blockSize,
        info.totalBlocks, info.icReference
    )
    var status = NFCISO15693MultipleBlockSecurityStatus(blockSecurityStatus: [0, 1])
    status.blockSecurityStatus = []
    let _: [Int] = status.blockSecurityStatus
}

@available(*, deprecated)
func bindDeprecatedISO15693Flags() {
    let _: RequestFlag = .RequestFlagDualSubCarriers
    let _: [NFCISO15693RequestFlag] = [
        .RequestFlagHighDataRate, .RequestFlagProtocolExtension, .RequestFlagSelect, .RequestFlagAddress,
        .RequestFlagOption,
    ]
}

func bindObjCConfiguration(_ s: NFCTagReaderSession, _ c: NFCTagReaderSessionConfiguration) {
    let _: (NFCTagReaderSession.PollingOption, [String], [String]) -> NFCTagReaderSessionConfiguration =
        NFCTagReaderSessionConfiguration.init(pollingOption:iso7816SelectIdentifiers:felicaSystemCodes:)
    c.polling = .iso14443
    c.iso7816SelectIdentifiers = []
    c.felicaSystemCodes = []
    let _: (NFCTagReaderSessionConfiguration) -> Void = s.restartPolling(with:)
}
