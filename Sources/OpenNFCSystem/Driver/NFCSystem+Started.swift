internal import Foundation
internal import Synchronization

/// The systems of the virtual phones that are started (`VirtualPhone.start()`): where a session goes when no system
/// is bound to the task that creates it — a session an app creates inside `DispatchQueue.async`, on a thread of its
/// own, or from a timer (docs/ARCHITECTURE.md "How a session finds its phone").
extension NFCSystem {
    private static let startedSystems = Mutex<[NFCSystem]>([])

    /// Makes `system` receive the sessions created outside any bound task until ``stop(_:)``.
    package static func start(_ system: NFCSystem) {
        startedSystems.withLock { list in
            if !list.contains(where: { $0 === system }) { list.append(system) }
        }
    }

    /// Undoes ``start(_:)``; a system that was not started is ignored.
    package static func stop(_ system: NFCSystem) {
        startedSystems.withLock { list in list.removeAll { $0 === system } }
    }

    /// Whether `system` is started.
    package static func isStarted(_ system: NFCSystem) -> Bool {
        startedSystems.withLock { list in list.contains { $0 === system } }
    }

    /// Which system an unbound session belongs to.
    package enum Unbound {
        /// No phone is started: the process default.
        case processDefault
        /// Exactly one phone is started.
        case started(NFCSystem)
        /// Several phones are started at once: the session cannot tell which it belongs to.
        case ambiguous(count: Int)
    }

    /// Where a session created with no bound system goes now.
    package static var unbound: Unbound {
        startedSystems.withLock { list in
            switch list.count {
            case 0: return .processDefault
            case 1: return .started(list[0])
            default: return .ambiguous(count: list.count)
            }
        }
    }

    /// A system without a reader for sessions that could belong to several started phones: `readingAvailable` is
    /// false and a session begun on it ends with `readerErrorUnsupportedFeature`, after `reason` is printed on stderr.
    package static func readerless(_ reason: String) -> NFCSystem {
        FileHandle.standardError.write(Data("OpenCoreNFC: \(reason)\n".utf8))
        // A configured app (usage description, formats): the session fails for the missing reader, not the app.
        return NFCSystem(
            frontend: nil, clock: WallClock(), configuration: AppConfiguration(), platform: standardPlatform)
    }
}
