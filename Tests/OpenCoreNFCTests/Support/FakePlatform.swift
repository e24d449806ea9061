import Foundation
import OpenNFCRF
import OpenNFCSystem
import OpenNFCTags
import Synchronization

/// A test double for the reader procedures: identifies targets from their activation (and a DESFire GetVersion),
/// and keeps each tag's NDEF data in memory, pinging the tag with a READ before every operation so a tag that left
/// the field fails as it would on the air. Lets the session rules be tested independently of `OpenNFCTags`.
final class FakePlatform: TagPlatform, @unchecked Sendable {
    struct Store {
        var message: [UInt8]
        var capacity: Int
        var readOnly = false
        var formatted = true
    }

    private let stores = Mutex<[[UInt8]: Store]>([:])

    /// Sets the NDEF data of the tag with this UID.
    func setNDEF(uid: [UInt8], _ store: Store) { stores.withLock { $0[uid] = store } }
    func ndef(uid: [UInt8]) -> Store? { stores.withLock { $0[uid] } }

    func identify(_ target: RFTarget, frontend: any RFFrontend) throws(SystemError) -> IdentifiedTag {
        guard target.isISODEP else { return IdentifiedTag(target: target, kind: .type2(.ntag215)) }
        do throws(RFError) {
            if case .frame(let r) = try frontend.exchange([0x60]), r.first == 0xAF {
                let software = try frontend.exchange([0xAF])
                let production = try frontend.exchange([0xAF])
                // The three GetVersion parts (status byte first); a card answering short still counts as a DESFire
                // here, with the bytes it gave padded, as this double only needs the family.
                func part(_ response: RFResponse, _ n: Int) -> [UInt8] {
                    guard case .frame(let b) = response else { return [UInt8](repeating: 0, count: n) }
                    return Array((Array(b.dropFirst()) + [UInt8](repeating: 0, count: n)).prefix(n))
                }
                let version = DESFireVersion(
                    hardware: part(.frame(r), 7), software: part(software, 7), production: part(production, 14))
                return IdentifiedTag(target: target, kind: version.map { .desfire($0) } ?? .iso7816)
            }
        } catch {
            throw SystemError(rf: error)
        }
        return IdentifiedTag(target: target, kind: .iso7816)
    }

    func ndefAccess(for tag: IdentifiedTag, frontend: any RFFrontend) -> (any NDEFAccess)? {
        Access(platform: self, uid: tag.target.identifier, frontend: frontend, isoDEP: tag.target.isISODEP)
    }

    final class Access: NDEFAccess {
        let platform: FakePlatform
        let uid: [UInt8]
        let frontend: any RFFrontend
        let isoDEP: Bool
        init(platform: FakePlatform, uid: [UInt8], frontend: any RFFrontend, isoDEP: Bool) {
            self.platform = platform
            self.uid = uid
            self.frontend = frontend
            self.isoDEP = isoDEP
        }

        private func ping(writing: Bool = false) throws(SystemError) {
            do throws(RFError) {
                _ = try frontend.exchange(isoDEP ? [0x00, 0xB0, 0x00, 0x00, 0x02] : [0x30, 0x00])
            } catch {
                throw SystemError(rf: error, writing: writing)
            }
        }

        private var store: Store { platform.ndef(uid: uid) ?? Store(message: [], capacity: 0, formatted: false) }

        func detect() throws(SystemError) -> NDEFState {
            try ping()
            let s = store
            if !s.formatted { return NDEFState(status: .notSupported, capacity: 0) }
            return NDEFState(status: s.readOnly ? .readOnly : .readWrite, capacity: s.capacity)
        }

        func read() throws(SystemError) -> [UInt8] {
            try ping()
            return store.message
        }

        func write(_ message: [UInt8]) throws(SystemError) {
            // The reader procedures' write rule (NDEFWriteRule), in its order.
            let current = store
            guard current.formatted else { throw SystemError(.tagUpdateFailure, "Tag Not NDEF formatted") }
            guard !current.readOnly else { throw SystemError(.tagNotWritable, "the tag is read-only") }
            guard !message.isEmpty else { throw SystemError(.zeroLengthMessage, "an empty message") }
            guard message.count <= current.capacity else {
                throw SystemError(.tagSizeTooSmall, "message of \(message.count) bytes, capacity \(current.capacity)")
            }
            try ping(writing: true)
            var s = store
            s.message = message
            platform.setNDEF(uid: uid, s)
            try ping(writing: true)
        }

        func lock() throws(SystemError) {
            try ping(writing: true)
            var s = store
            s.readOnly = true
            platform.setNDEF(uid: uid, s)
        }
    }
}
