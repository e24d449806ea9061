/// The number of time slots a FeliCa Polling offers, as the time slot number TSN (Apple's Core NFC documentation;
/// JIS X 6319-4 §8.5.1; docs/PARITY.md §9.1): the card answers in one of TSN + 1 slots.
public enum NFCFeliCaPollingTimeSlot: Int, Sendable, Hashable {
    case max1 = 0
    case max2 = 1
    case max4 = 3
    case max8 = 7
    case max16 = 15

    @available(*, deprecated, renamed: "max1")
    public static var PollingTimeSlotMax1: NFCFeliCaPollingTimeSlot { .max1 }
    @available(*, deprecated, renamed: "max2")
    public static var PollingTimeSlotMax2: NFCFeliCaPollingTimeSlot { .max2 }
    @available(*, deprecated, renamed: "max4")
    public static var PollingTimeSlotMax4: NFCFeliCaPollingTimeSlot { .max4 }
    /// Apple's header names the replacement "Max18" (a typo); the replacement is ``max8``.
    @available(*, deprecated, renamed: "max8")
    public static var PollingTimeSlotMax8: NFCFeliCaPollingTimeSlot { .max8 }
    @available(*, deprecated, renamed: "max16")
    public static var PollingTimeSlotMax16: NFCFeliCaPollingTimeSlot { .max16 }
}

/// The iOS 13 name of ``NFCFeliCaPollingTimeSlot``.
@available(*, deprecated, renamed: "NFCFeliCaPollingTimeSlot")
public typealias PollingTimeSlot = NFCFeliCaPollingTimeSlot
