internal import Foundation
internal import OpenNFCSystem

/// The iOS 11 ISO 15693 calls on a delivered tag. Apple's header (iOS 17.4 `NFCISO15693Tag.h`) says they need the
/// `com.apple.developer.nfc.readersession.iso15693.tag-identifiers` entitlement and fail with
/// `readerErrorUnsupportedFeature` on tags from `NFCTagReaderSession`; the only session whose tags took them,
/// `NFCISO15693ReaderSession`, is "No longer supported" since iOS 17. So on the session's queue they complete with 1
/// (after the checks every command makes: 103 once the session is invalidated, 100 for a tag gone, 104
/// for one not connected), sending nothing (docs/DIFFERENCES.md "iOS 11 ISO 15693 calls").
extension ISO15693TagObject {
    func sendCustomCommand(
        commandConfiguration: NFCISO15693CustomCommandConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        refuseLegacy("sendCustomCommand(commandConfiguration:)") { completionHandler(Data(), $0) }
    }

    func readMultipleBlock(
        readConfiguration: NFCISO15693ReadMultipleBlocksConfiguration,
        completionHandler: @escaping (Data, (any Error)?) -> Void
    ) {
        refuseLegacy("readMultipleBlock(readConfiguration:)") { completionHandler(Data(), $0) }
    }

    private func refuseLegacy(_ call: String, _ done: @escaping (any Error) -> Void) {
        let (system, ref) = (self.system, reference)
        perform({ () throws(SystemError) in
            try system.refuse(ref, "\(call) is an iOS 11 call a current iOS refuses on delivered tags")
        }) { result in
            if case .failure(let e) = result { done(e) }
        }
    }
}
