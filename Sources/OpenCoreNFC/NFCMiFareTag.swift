public import Foundation

/// A MIFARE tag: Ultralight/NTAG (Type 2), Plus, DESFire (Apple's Core NFC documentation; docs/PARITY.md §8).
public protocol NFCMiFareTag: __NFCTag, NFCNDEFTag {
    var mifareFamily: NFCMiFareFamily { get }
    /// The UID.
    var identifier: Data { get }
    /// Historical bytes from the ATS (ISO-DEP tags).
    var historicalBytes: Data? { get }
    /// Sends a native command (a frame without CRC; a DESFire native command). A 4-bit ACK arrives as the byte `0A`;
    /// a 4-bit NAK fails the command with `readerTransceiveErrorTagConnectionLost` (100), as on iOS.
    @preconcurrency func sendMiFareCommand(
        commandPacket command: Data, completionHandler: @escaping @Sendable (Data, (any Error)?) -> Void)
    /// Sends an APDU to a Plus or DESFire tag.
    @preconcurrency func sendMiFareISO7816Command(
        _ apdu: NFCISO7816APDU, completionHandler: @escaping @Sendable (Data, UInt8, UInt8, (any Error)?) -> Void)
}

extension NFCMiFareTag {
    /// The imported `async` form.
    public func sendMiFareCommand(commandPacket command: Data) async throws -> Data {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Data, any Error>) in
            sendMiFareCommand(commandPacket: command) { data, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: data) }
            }
        }
    }

    /// The imported `async` form.
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> (Data, UInt8, UInt8) {
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<(Data, UInt8, UInt8), any Error>) in
            sendMiFareISO7816Command(apdu) { data, sw1, sw2, error in
                if let error { c.resume(throwing: error) } else { c.resume(returning: (data, sw1, sw2)) }
            }
        }
    }

    /// The iOS 14 overlay's `Result` form.
    @preconcurrency public func sendMiFareCommand(
        commandPacket command: Data, resultHandler: @escaping @Sendable (Result<Data, any Error>) -> Void
    ) {
        sendMiFareCommand(commandPacket: command) { data, error in
            resultHandler(error.map { .failure($0) } ?? .success(data))
        }
    }

    /// The iOS 14 overlay's `Result` form.
    @preconcurrency public func sendMiFareISO7816Command(
        _ apdu: NFCISO7816APDU, resultHandler: @escaping @Sendable (Result<NFCISO7816ResponseAPDU, any Error>) -> Void
    ) {
        sendMiFareISO7816Command(apdu) { data, sw1, sw2, error in
            if let error {
                resultHandler(.failure(error))
            } else {
                resultHandler(
                    .success(
                        NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data.isEmpty ? nil : data)))
            }
        }
    }

    /// The iOS 14 overlay's `async` form returning a response APDU.
    public func sendMiFareISO7816Command(_ apdu: NFCISO7816APDU) async throws -> NFCISO7816ResponseAPDU {
        let (data, sw1, sw2): (Data, UInt8, UInt8) = try await sendMiFareISO7816Command(apdu)
        return NFCISO7816ResponseAPDU(statusWord1: sw1, statusWord2: sw2, payload: data.isEmpty ? nil : data)
    }
}
