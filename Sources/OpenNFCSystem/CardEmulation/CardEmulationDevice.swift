/// A device that brings a terminal to the phone's card: the virtual terminal of the testing product, vsmartcard's
/// vpcd (`vpcd:`), a reader in card-emulation (target) mode. The seam is deliberately small:
///
/// - the system tells the device when the phone starts or stops answering as a card (``presenceChanged(_:prefixes:)``);
/// - the device drives the phone through ``NFCSystem``'s terminal entry points: `terminalFieldOn()`,
///   `terminalFieldOff()`, `terminalTransceive(_:reply:)` (the reply comes once, from any thread, when the app
///   answers; nil when the phone stays mute) and `terminalGaveUp()`.
package protocol CardEmulationDevice: AnyObject, Sendable {
    /// Called on the system's executor: `present` says whether the app's card is now emulated; `prefixes` are the
    /// AID prefixes the app declared (a device may build its ATR or routing from them). Must not block.
    func presenceChanged(_ present: Bool, prefixes: [[UInt8]])

    /// Called on the system's executor with every event posted to the app's stream (`readerDetected`,
    /// `readerDeselected`, `received`, `sessionInvalidated` …), so a device can show them (the field page's terminal
    /// panel). Must not block. The default does nothing.
    func cardEventPosted(_ event: CardEmulationMachine.Event)
}

extension CardEmulationDevice {
    package func cardEventPosted(_ event: CardEmulationMachine.Event) {}
}

/// The app side of a card session's events (the public `CardSession.EventStream`): events arrive on the system's
/// executor and must be taken without blocking.
package protocol CardEmulationClient: AnyObject, Sendable {
    func receive(_ event: CardEmulationMachine.Event)
}
