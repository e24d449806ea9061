/// Status Flag 1 and Status Flag 2 of a FeliCa answer (the iOS 14 overlay; FeliCa Card User's Manual, Excerpted
/// Edition, "Status Flag"; docs/PARITY.md §9.3). Status Flag 1 is zero on success; a card's error is reported here,
/// with a nil error, as Core NFC does.
public struct NFCFeliCaStatusFlag {
    public var statusFlag1: Int
    public var statusFlag2: Int

    public init(statusFlag1: Int, statusFlag2: Int) {
        self.statusFlag1 = statusFlag1
        self.statusFlag2 = statusFlag2
    }
}
