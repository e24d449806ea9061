/// The idle rule a simulated device's idle detector (OpenNFCDevices) asks before it moves the virtual clock: the
/// System knows its sessions, the device owns the clock.
extension NFCSystem {
    /// Wall time without API calls before a simulated device's idle detector may jump its clock (one second, so
    /// that the app's own short timers run first).
    package static let idleQuietSpell: UInt64 = 1_000_000_000

    /// The idle rule: the active session is waiting for a tag (scanning, nothing delivered, nothing connected — a
    /// card no declared AID selects counts as no tag), nothing running, and a quiet spell of wall time.
    package var isIdle: Bool {
        guard isQuiescent, wallTimeSinceLastAPICall >= Self.idleQuietSpell else { return false }
        return perform {
            guard let id = arbiter.active, let s = sessions[id] else { return false }
            return s.tags.isPolling
        }
    }
}
