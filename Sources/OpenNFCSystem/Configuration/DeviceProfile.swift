/// Which rules the simulated system applies (Apple's Core NFC documentation; docs/PARITY.md §13).
///
/// | Rule | `iphone` | `desktop` |
/// |---|---|---|
/// | `NFCReaderUsageDescription` required | yes: beginning without it terminates the process | no |
/// | formats entitlement (`NDEF`/`TAG`/`PACE`) required | yes, else 2 at begin | no (all formats) |
/// | ISO 7816 tags need a declared AID that SELECTs | yes | only when AIDs are declared; otherwise delivered unselected |
/// | later SELECT by name checked against the list | yes | only when AIDs are declared |
/// | FeliCa tags need declared system codes | yes | only when declared |
public enum DeviceProfile: String, Sendable, Hashable, CaseIterable {
    case iphone
    case desktop
}
