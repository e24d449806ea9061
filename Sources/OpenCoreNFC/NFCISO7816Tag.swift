public import Foundation

/// An ISO 7816 tag: a card that answers APDUs, delivered after a declared AID was selected (Apple's Core NFC documentation; docs/PARITY.md §7.3).
public protocol NFCISO7816Tag: __NFCTag, NFCNDEFTag {
    /// The declared AID (as written in the Info.plist) whose SELECT succeeded at discovery.
    var initialSelectedAID: String { get }
    /// The UID (Type A) or PUPI (Type B).
    var identifier: Data { get }
    /// Historical bytes from the Type A ATS.
    var historicalBytes: Data? { get }
    /// Application data from the Type B ATQB.
    var applicationData: Data? { get }
    /// False: the application data uses ISO 14443-3 coding.
    var proprietaryApplicationDataCoding: Bool { get }
    /// Whether the card supports PACE (iOS 26.4): its EF.CardAccess lists a PACE protocol (ICAO Doc 9303 Part 11
    /// §9.2.1). Cards delivered by `.pace` polling always do.
    var supportsPACE: Bool { get }
    /// Sends an APDU; the handler gets the response data, SW1 and SW2.
    @preconcurrency func sendCommand(
        apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void)
}

extension NFCISO7816Tag {
    /// The imported `async` form.
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Data, UInt8, UInt8), any Error>) in
            sendCommand(apdu: apdu) { data, sw1, sw2, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (data, sw1, sw2)) }
            }
        }
    }

    /// The iOS 14 overlay's `Result` form.
    @preconcurrency public func sendCommand(
        apdu: NFCISO7816APDU, resultHandler: @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void
    ) {
        sendCommand(apdu: apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(
                    .success(
                        NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data.isEmpty ? nil : data)))
            }
        }
    }

    /// The iOS 14 overlay's `async` form returning a response APDU (payload nil when empty).
    public func sendCommand(apdu: NFCISO7816APDU) async throws -> NFCISO7816ResponseAPDU {
        let (data, sw1, sw2): (Data, UInt8, UInt8) = try await sendCommand(apdu: apdu)
        return NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data.isEmpty ? nil : data)
    }
}
