import OpenNFCRF

/// A place where tags are presented to the tag commands: the simulated field fed from tag files, or a PC/SC reader.
///
/// A device hands out one tag at a time. ``waitForTag(timeout:)`` returns the next tag in the field (waiting for one
/// when there is none, on the device's own clock), and ``release(changed:)`` ends the command's use of it: a
/// simulated device writes the tag back to its file when its state changed and takes it out of the field, a
/// reader lets it go (the user takes it away).
protocol Device: AnyObject {
    /// As the user would write it in `--device`, for messages.
    var name: String { get }
    /// The frontend the reader procedures talk through (wrapped by the session for `--trace` and counting).
    var frontend: any RFFrontend { get }
    /// The device's time: virtual for the simulated field (so waiting costs no real time), the wall clock for
    /// readers. Progress rates are measured on it.
    var clock: any NFCClock { get }
    /// Tags still to be presented, when the device knows (the simulated field); nil for a reader.
    var tagsRemaining: Int? { get }
    /// True when a wait should print a prompt before blocking (a real reader); the simulated field never blocks.
    var waitsForPeople: Bool { get }

    /// The next tag in the field: at once if one is there, otherwise after waiting up to `timeout`; nil when the
    /// time ran out.
    func waitForTag(timeout: NFCDuration) throws -> RFTarget?

    /// The command is done with the current tag. A simulated device compares the tag's state with the state it was
    /// loaded in and writes its file back (atomically) only when it differs, then takes the tag out of the field.
    func release() throws

    /// Waits until the tag just released has left the field (a reader: the person takes it away), at most
    /// `timeout`; false when it is still there. The simulated field has already taken it away.
    func waitForRemoval(timeout: NFCDuration) throws -> Bool

    /// Ends the use of the device (closes the PC/SC context). Called once.
    func close()
}
