extension DESFireEV1Tag {
    /// What this card's GetVersion (`60`) reports over its three frames: a setting of the virtual card (the reader
    /// side parses the answer into its own `DESFireVersion`). Defaults are the MIFARE DESFire EV1 4K values of a
    /// public GetVersion trace (layout: NXP MF3ICD81 §9, GetVersion): hardware `04 01 01 01 00 18 05`, software
    /// `04 01 01 01 04 18 05`, batch `BA 34 98 BA D0`, production week `29`, year `12`; the third frame carries the
    /// card's UID.
    public struct Version: Sendable, Hashable {
        /// Vendor, type, subtype, major, minor, storage size, protocol (7 bytes).
        public var hardware: [UInt8]
        /// Vendor, type, subtype, major, minor, storage size, protocol (7 bytes).
        public var software: [UInt8]
        /// Batch number (5 bytes).
        public var batch: [UInt8]
        /// Calendar week of production (BCD).
        public var productionWeek: UInt8
        /// Year of production (BCD).
        public var productionYear: UInt8

        public init(
            hardware: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x00, 0x18, 0x05],
            software: [UInt8] = [0x04, 0x01, 0x01, 0x01, 0x04, 0x18, 0x05],
            batch: [UInt8] = [0xBA, 0x34, 0x98, 0xBA, 0xD0], productionWeek: UInt8 = 0x29, productionYear: UInt8 = 0x12
        ) {
            self.hardware = hardware
            self.software = software
            self.batch = batch
            self.productionWeek = productionWeek
            self.productionYear = productionYear
        }

        /// The EV1 version of a given storage size byte (`16` 2 KiB, `18` 4 KiB, `1A` 8 KiB).
        public static func ev1(storage: UInt8) -> Version {
            var v = Version()
            v.hardware[5] = storage
            v.software[5] = storage
            return v
        }
    }
}
