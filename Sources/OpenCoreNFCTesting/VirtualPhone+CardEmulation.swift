internal import Foundation
public import OpenNFCSystem

/// Card emulation on the virtual iPhone (`CardSession`; docs/CARD-EMULATION.md): the phone's HCE settings, the traps
/// iOS raises, and a deterministic way to run the app's handler.
extension VirtualPhone {
    /// Whether this phone offers card emulation (`CardSession.isSupported`, `isEligible`). Default `.eligible`.
    public var cardEmulation: CardEmulationAvailability {
        get { system.phoneState.cardEmulation }
        set { system.setCardEmulation(newValue) }
    }

    /// The default contactless app a terminal's field opens over the app unless it emulates or holds a presentment
    /// assertion (default "Wallet"; nil: none). An app with the `…hce.default-contactless-app` entitlement is the
    /// default itself.
    public var defaultContactlessApp: String? {
        get { system.phoneState.defaultContactlessApp }
        set { system.setDefaultContactlessApp(newValue) }
    }

    /// The traps (`fatalError` on iOS) the app's calls raised, oldest first: `CardSession()` without the entitlement
    /// or on an unsupported device, a second `respond`, `NFCPresentmentIntentAssertion.acquire()` without the
    /// entitlement. The trapping call returns instead (`CardSession()` then throws `systemNotAvailable`).
    public var traps: [String] {
        settle()
        return system.traps
    }

    /// Whether the phone answers a terminal as a card now (emulation in progress).
    public var isEmulatingCard: Bool {
        settle()
        return system.isEmulatingCard
    }

    /// Runs async app code (a `CardSession` handler) on this phone, on an executor of its own so that ``settle()``
    /// can wait for it from any thread: `settle()` returns once the handler has taken every event and waits for the
    /// next (or the task ended).
    public func launch(_ app: @escaping @Sendable () async -> Void) {
        let system = self.system
        let token = system.beginLaunch()
        let executor = appExecutor
        Task(executorPreference: executor) {
            await NFCSystem.$current.withValue(system) {
                await NFCSystem.$inLaunchedApp.withValue(true) { await app() }
            }
            system.endLaunch(token)
        }
    }

    private var appExecutor: AppTaskExecutor { AppTaskExecutor.shared }
}

/// The executor app handlers launched on a virtual phone run on: one serial queue outside the cooperative pool, so
/// that a test blocking in `settle()` never starves the handler it waits for.
final class AppTaskExecutor: TaskExecutor, @unchecked Sendable {
    static let shared = AppTaskExecutor()
    private let queue = DispatchQueue(label: "OpenCoreNFCTesting.app", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let unowned = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { unowned.runSynchronously(on: executor) }
    }
}
