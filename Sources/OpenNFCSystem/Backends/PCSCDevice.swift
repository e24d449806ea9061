internal import OpenNFCPCSC
public import OpenNFCRF

/// The `pcsc:` device: a USB (or virtual) reader through pcscd, with OpenNFCPCSC's ``PCSCFrontend``.
///
/// | Device string | Readers used |
/// |---|---|
/// | `pcsc` | every reader pcscd knows; each card present is one tag |
/// | `pcsc:<reader>` | the reader with that exact name, or the only one whose name contains it |
///
/// The system runs on the wall clock and polls every 250 ms while a session scans (each poll is one
/// `SCardGetStatusChange` without waiting, plus a UID read for a newly arrived card). Opening fails with what to do
/// when pcscd is not running, no reader is connected, or the name matches none or several readers.
public enum PCSCDevice {
    /// How often a scanning session polls the readers.
    public static let pollInterval = NFCDuration.milliseconds(250)

    /// The registered scheme.
    public static let scheme = DeviceScheme(
        name: "pcsc", help: "pcsc or pcsc:<reader> — a PC/SC reader through pcscd (all readers, or the one named)"
    ) { (argument: String) throws(DeviceError) -> OpenedDevice in
        try open(reader: argument.isEmpty ? nil : argument)
    }

    /// Opens the readers (`reader` nil: all of them).
    public static func open(reader wanted: String?) throws(DeviceError) -> OpenedDevice {
        let context: PCSCContext
        let readers: [String]
        do {
            context = try PCSCContext()
            readers = try context.requireReaders()
        } catch {
            throw DeviceError("pcsc: \(error.detail)")
        }
        var reader: String?
        if let wanted {
            let list = readers.map { "\"\($0)\"" }.joined(separator: ", ")
            if readers.contains(wanted) {
                reader = wanted
            } else {
                let matches = readers.filter { $0.lowercased().contains(wanted.lowercased()) }
                guard matches.count == 1 else {
                    throw DeviceError(
                        matches.isEmpty
                            ? "pcsc: no reader matches \"\(wanted)\"; the readers are \(list)"
                            : "pcsc: \"\(wanted)\" matches \(matches.count) readers of \(list); give more of the name")
                }
                reader = matches[0]
            }
        }
        let frontend = InstrumentedFrontend(PCSCFrontend(context: context, reader: reader))
        return OpenedDevice(frontend: frontend, clock: .wall, pollInterval: pollInterval)
    }
}
