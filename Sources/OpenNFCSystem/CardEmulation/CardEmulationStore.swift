internal import OpenNFCRF

/// What the system keeps for card emulation beside the machine: the sessions' clients and alert messages, the timers,
/// the terminal's waiting reply, the attached device, and how traps are handled.
struct CardEmulationStore {
    var machine = CardEmulationMachine()
    var clients: [SessionID: any CardEmulationClient] = [:]
    var alertMessages: [SessionID: String] = [:]
    var nextSession: UInt64 = 0
    var deadline: TimerHandle?
    var assertionTimer: TimerHandle?
    var reply: (@Sendable ([UInt8]?) -> Void)?
    var device: (any CardEmulationDevice)?
    /// Traps are recorded here instead of ending the process (the testing product's phones).
    var recordsTraps = false
    var traps: [String] = []
    /// App launches (``NFCSystem/beginLaunch()``) whose counted unit a new card session takes over, oldest first.
    var launches: [UInt64] = []
    var nextLaunch: UInt64 = 0
}
