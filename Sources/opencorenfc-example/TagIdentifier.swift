import Foundation
import OpenCoreNFC

/// `tag`: a tag reader session polling ISO 14443 that names the first tag as Core NFC delivers it and, for a MIFARE
/// tag, sends it GetVersion (`60`, a native command) through `sendMiFareCommand`.
final class TagIdentifier: NSObject, NFCTagReaderSessionDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var status: Int32 = 1

    func tagReaderSessionDidBecomeActive(_ session: NFCTagReaderSession) {
        FileHandle.standardError.write(Data("Hold your iPhone near the tag.\n".utf8))
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didDetect tags: [NFCTag]) {
        nonisolated(unsafe) let tag = tags[0]
        session.connect(to: tag) { error in
            if let error {
                session.invalidate(errorMessage: "Connection failed: \(error.localizedDescription)")
                return
            }
            switch tag {
            case .miFare(let mifare):
                let family =
                    switch mifare.mifareFamily {
                    case .ultralight: "ultralight"
                    case .plus: "plus"
                    case .desfire: "desfire"
                    default: "unknown"
                    }
                print("MIFARE \(family), UID \(mifare.identifier.map { String(format: "%02X", $0) }.joined())")
                mifare.sendMiFareCommand(commandPacket: Data([0x60])) { answer, error in
                    if let error {
                        session.invalidate(errorMessage: "GetVersion failed: \(error.localizedDescription)")
                        return
                    }
                    print("GetVersion \(answer.map { String(format: "%02X", $0) }.joined())")
                    self.status = 0
                    session.invalidate()
                }
            case .iso7816(let card):
                print("ISO 7816, AID \(card.initialSelectedAID)")
                self.status = 0
                session.invalidate()
            default:
                print("another kind of tag")
                self.status = 0
                session.invalidate()
            }
        }
    }

    func tagReaderSession(_ session: NFCTagReaderSession, didInvalidateWithError error: any Error) {
        if let e = error as? NFCReaderError, e.code != .readerSessionInvalidationErrorUserCanceled {
            FileHandle.standardError.write(Data("Session ended: \(error.localizedDescription)\n".utf8))
            status = 1
        }
        done.signal()
    }
}
