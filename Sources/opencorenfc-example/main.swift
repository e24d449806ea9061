// A plain command-line program written against Core NFC's API, unchanged but for the import: it reads one NDEF tag
// and prints its records. Point it at a device from outside:
//
//     OPENCORENFC_DEVICE=sim:poster.ndef OPENCORENFC_PROFILE=desktop opencorenfc-example
//
// The integration tests run it with and without a device (OpenCoreNFCTests/ExampleProgramTests).
import Foundation
import OpenCoreNFC

final class TagReader: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var status: Int32 = 0

    func readerSessionDidBecomeActive(_ session: NFCNDEFReaderSession) {
        FileHandle.standardError.write(Data("Hold your iPhone near the tag.\n".utf8))
    }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {
        for message in messages {
            for record in message.records {
                if let url = record.wellKnownTypeURIPayload() {
                    print("URI \(url.absoluteString)")
                } else if case (let text?, _) = record.wellKnownTypeTextPayload() {
                    print("Text \(text)")
                } else {
                    print("Record TNF \(record.typeNameFormat.rawValue), \(record.payload.count)-byte payload")
                }
            }
        }
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) {
        if let e = error as? NFCReaderError, e.code == .readerSessionInvalidationErrorFirstNDEFTagRead {
            status = 0
        } else {
            FileHandle.standardError.write(Data("Session ended: \(error.localizedDescription)\n".utf8))
            status = 1
        }
        done.signal()
    }
}

guard NFCNDEFReaderSession.readingAvailable else {
    FileHandle.standardError.write(Data("NFC reading is not available on this device.\n".utf8))
    exit(1)
}
let reader = TagReader()
let session = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
session.alertMessage = "Hold your iPhone near the tag."
session.begin()
reader.done.wait()
exit(reader.status)
