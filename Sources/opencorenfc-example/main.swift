// A plain command-line program written against Core NFC's API, unchanged but for the import. With no argument it
// reads one NDEF tag and prints its records; `write <uri>` writes a URI record to the tag, `lock` makes it
// read-only (both through a read-write NDEF session), `tag` names the first ISO 14443 tag as a tag reader session
// delivers it (a MIFARE tag also answers GetVersion). Point it at a device from outside:
//
//     OPENCORENFC_DEVICE=sim:poster.ndef OPENCORENFC_PROFILE=desktop opencorenfc-example
//     OPENCORENFC_DEVICE=sim:tag.json OPENCORENFC_PROFILE=desktop opencorenfc-example write https://example.com
//
// `card` makes the program a loyalty card through CardSession (host card emulation, written as Apple's documentation
// shows a handler): it answers SELECT with 90 00 and GET DATA (80 CA) with its member number until emulation ends.
// With OPENCORENFC_DEVICE=vpcd: the card appears in pcscd, where any PC/SC program is the terminal:
//
//     OPENCORENFC_DEVICE=vpcd: OPENCORENFC_ENTITLEMENTS=App.entitlements opencorenfc-example card
//     opennfc terminal --device pcsc --aid F04C4F59414C 80CA000000
//
// The integration tests run it with and without a device (OpenCoreNFCTests/ExampleProgramTests,
// OpenCoreNFCTests/SimTagFileSaveTests, OpenNFCPCSCEndToEndTests/CardSessionVPCDTests).
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

/// Writes a message to, or locks, the first tag (Apple's "Building an NFC Tag-Reader App" flow: connect, query,
/// then write or lock).
final class TagWriter: NSObject, NFCNDEFReaderSessionDelegate, @unchecked Sendable {
    let done = DispatchSemaphore(value: 0)
    var status: Int32 = 1
    let message: NFCNDEFMessage?

    init(message: NFCNDEFMessage?) { self.message = message }

    func readerSession(_ session: NFCNDEFReaderSession, didDetectNDEFs messages: [NFCNDEFMessage]) {}

    func readerSession(_ session: NFCNDEFReaderSession, didDetect tags: [any NFCNDEFTag]) {
        // Handlers are `@Sendable` (as in Apple's current SDK) and tag objects are not: the tag is only used on the
        // session's queue, where every handler runs, which is what `nonisolated(unsafe)` asserts.
        nonisolated(unsafe) let tag = tags[0]
        session.connect(to: tag) { error in
            if let error { return self.fail(session, error) }
            tag.queryNDEFStatus { status, _, error in
                if let error { return self.fail(session, error) }
                guard status == .readWrite else {
                    return self.fail(session, NFCReaderError(.ndefReaderSessionErrorTagNotWritable))
                }
                let finish: @Sendable ((any Error)?) -> Void = { error in
                    if let error { return self.fail(session, error) }
                    print(self.message == nil ? "Locked" : "Wrote \(self.message!.length) bytes")
                    self.status = 0
                    session.invalidate()
                }
                if let message = self.message {
                    tag.writeNDEF(message, completionHandler: finish)
                } else {
                    tag.writeLock(completionHandler: finish)
                }
            }
        }
    }

    func fail(_ session: NFCNDEFReaderSession, _ error: any Error) {
        FileHandle.standardError.write(Data("Failed: \(error.localizedDescription)\n".utf8))
        session.invalidate(errorMessage: error.localizedDescription)
    }

    func readerSession(_ session: NFCNDEFReaderSession, didInvalidateWithError error: any Error) { done.signal() }
}

/// A loyalty card: the handler Apple's `CardSession` documentation describes.
func loyaltyCard() async -> Int32 {
    guard CardSession.isSupported, await CardSession.isEligible else {
        FileHandle.standardError.write(Data("Card emulation is not available on this device.\n".utf8))
        return 1
    }
    let log: (String) -> Void = { FileHandle.standardError.write(Data("\($0)\n".utf8)) }
    do {
        let session = try await CardSession()
        for try await event in session.eventStream {
            switch event {
            case .sessionStarted:
                session.alertMessage = "Hold near the reader."
                try await session.startEmulation()
                log("emulating")
            case .readerDetected: log("reader detected")
            case .readerDeselected: log("reader deselected")
            case .received(let apdu):
                let b = [UInt8](apdu.payload)
                let answer: [UInt8]
                switch b.count >= 4 ? b[1] : 0 {
                case 0xA4: answer = [0x90, 0x00]
                case 0xCA: answer = Array("MEMBER-0042".utf8) + [0x90, 0x00]
                default: answer = [0x6D, 0x00]
                }
                try await apdu.respond(response: Data(answer))
            case .sessionInvalidated(let reason):
                log("session ended: \(reason)")
            }
        }
        return 0
    } catch {
        log("card session failed: \(error)")
        return 1
    }
}

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments == ["card"] {
    final class Outcome: @unchecked Sendable {
        let finished = DispatchSemaphore(value: 0)
        var status: Int32 = 1
    }
    let outcome = Outcome()
    Task.detached {  // top-level code runs on the main actor, which waits below
        outcome.status = await loyaltyCard()
        outcome.finished.signal()
    }
    outcome.finished.wait()
    exit(outcome.status)
}
guard NFCNDEFReaderSession.readingAvailable else {
    FileHandle.standardError.write(Data("NFC reading is not available on this device.\n".utf8))
    exit(1)
}
switch arguments.first {
case nil:
    let reader = TagReader()
    let session = NFCNDEFReaderSession(delegate: reader, queue: nil, invalidateAfterFirstRead: true)
    session.alertMessage = "Hold your iPhone near the tag."
    session.begin()
    reader.done.wait()
    exit(reader.status)
case "write" where arguments.count == 2, "lock" where arguments.count == 1:
    var message: NFCNDEFMessage?
    if arguments[0] == "write" {
        guard let record = NFCNDEFPayload.wellKnownTypeURIPayload(string: arguments[1]) else {
            FileHandle.standardError.write(Data("Not a URI: \(arguments[1])\n".utf8))
            exit(64)
        }
        message = NFCNDEFMessage(records: [record])
    }
    let writer = TagWriter(message: message)
    let session = NFCNDEFReaderSession(delegate: writer, queue: nil, invalidateAfterFirstRead: false)
    session.alertMessage = "Hold your iPhone near the tag to update it."
    session.begin()
    writer.done.wait()
    exit(writer.status)
case "tag" where arguments.count == 1:
    let identifier = TagIdentifier()
    let session = NFCTagReaderSession(
        configuration: .init(pollingOption: .iso14443), delegate: identifier, queue: nil)
    session.alertMessage = "Hold your iPhone near the tag."
    session.begin()
    identifier.done.wait()
    exit(identifier.status)
default:
    FileHandle.standardError.write(Data("usage: opencorenfc-example [write <uri> | lock | tag | card]\n".utf8))
    exit(64)
}
