public import Foundation
internal import OpenNFCSystem

@available(iOS 17.4, *)
extension CardSession {
    /// A command APDU from the terminal, to be answered exactly once.
    public final class APDU: Sendable, Equatable, CustomDebugStringConvertible {
        /// The command as the terminal sent it (header, Lc, data, Le).
        public let payload: Data
        let system: NFCSystem
        let id: CardAPDUID

        init(payload: [UInt8], system: NFCSystem, id: CardAPDUID) {
            self.payload = Data(payload)
            self.system = system
            self.id = id
        }

        deinit { system.apduReleased(id) }

        /// Sends the response APDU (data and status word). Call it exactly once: a second call traps, except after it
        /// threw ``CardSession/Error/transmissionError`` (the terminal's field went, or it stopped waiting), when a
        /// retry is allowed; ``CardSession/Error/emulationStopped`` once emulation ended. Releasing the APDU without
        /// an answer while the terminal waits ends emulation.
        public final func respond(response: Data) async throws {
            if let error = system.respond(id, [UInt8](response)) { throw CardSession.Error(error) }
        }

        public static func == (lhs: APDU, rhs: APDU) -> Bool { lhs === rhs }

        public var debugDescription: String {
            "CardSession.APDU(\(payload.map { ($0 < 16 ? "0" : "") + String($0, radix: 16, uppercase: true) }.joined()))"
        }
    }
}
