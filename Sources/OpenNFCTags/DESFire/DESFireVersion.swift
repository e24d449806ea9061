/// The answer to a MIFARE DESFire GetVersion (`60`, then `AF` twice): hardware and software versions and
/// production data (NXP MF3ICD81 §9, GetVersion).
package struct DESFireVersion: Sendable, Hashable, CustomStringConvertible {
    /// The DESFire generation, from the hardware major version.
    package enum Generation: String, Sendable, Hashable {
        /// MF3ICD40 (major `00`).
        case ev0
        /// DESFire EV1 (major `01`).
        case ev1
        /// DESFire EV2 (major `12`, or `22` for EV2 XL).
        case ev2
        /// DESFire EV3 (major `33`).
        case ev3
        /// A DESFire product with a major version not listed here.
        case unknown
    }

    /// Hardware part: vendor, type, subtype, major, minor, storage size, protocol.
    package var hardware: [UInt8]
    /// Software part, same layout.
    package var software: [UInt8]
    /// Production part: UID (7), batch number (5), production week and year.
    package var production: [UInt8]

    /// Parses the three parts (7, 7 and 14 bytes of data, status bytes removed).
    package init?(hardware: [UInt8], software: [UInt8], production: [UInt8]) {
        guard hardware.count == 7, software.count == 7, production.count == 14 else { return nil }
        self.hardware = hardware
        self.software = software
        self.production = production
    }

    /// Whether the hardware type byte names a DESFire (`01`, or `81` on some variants) rather than another NXP
    /// ISO-DEP product answering GetVersion (NTAG 4xx `04`, MIFARE Plus `02`, DESFire Light `08`).
    package var isDESFire: Bool { hardware[1] == 0x01 || hardware[1] == 0x81 }

    package var generation: Generation {
        switch hardware[3] {
        case 0x00: return .ev0
        case 0x01: return .ev1
        case 0x12, 0x22: return .ev2
        case 0x33: return .ev3
        default: return .unknown
        }
    }

    /// Storage size in bytes (the lower bound when the size byte's low bit says "between 2^n and 2^(n+1)").
    package var storageSize: Int { 1 << Int(hardware[5] >> 1) }

    /// The 7-byte UID from the production part.
    package var uid: [UInt8] { Array(production[0..<7]) }

    package var description: String { "DESFire \(generation.rawValue.uppercased()) \(storageSize) bytes" }
}
