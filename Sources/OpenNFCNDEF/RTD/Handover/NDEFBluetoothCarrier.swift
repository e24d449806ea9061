/// A Bluetooth carrier configuration record (Bluetooth SIG "Bluetooth Secure Simple Pairing Using NFC" 1.1, used as
/// the carrier of Connection Handover): a MIME record of type `application/vnd.bluetooth.ep.oob` (BR/EDR) or
/// `application/vnd.bluetooth.le.oob` (LE).
///
/// | Transport | Payload |
/// |---|---|
/// | BR/EDR | 2-byte little-endian OOB length (whole payload), 6-byte address (little-endian), EIR structures |
/// | LE | AD structures only; the address is AD type 0x1B (6 bytes little-endian + address type), role 0x1C |
///
/// Each EIR/AD structure is `length` (type + data), `type`, `data`; a zero length ends the list. The structures are
/// kept in order in ``dataStructures`` (so encoding is lossless); the accessors decode the common ones: local name
/// (0x08/0x09), class of device (0x0D), 16-bit service UUIDs (0x02/0x03), appearance (0x19), LE role (0x1C).
/// Strict decoding checks the OOB length, the structure lengths and (LE) the presence of address and role.
package struct NDEFBluetoothCarrier: NDEFTypedRecord {
    package enum Transport: String, Hashable, Sendable {
        case classic = "application/vnd.bluetooth.ep.oob"
        case lowEnergy = "application/vnd.bluetooth.le.oob"
    }

    /// One EIR (BR/EDR) or AD (LE) structure.
    package struct DataStructure: Hashable, Sendable {
        package var type: UInt8
        package var data: [UInt8]
        package init(type: UInt8, data: [UInt8]) {
            self.type = type
            self.data = data
        }
    }

    package var transport: Transport
    /// The device address in display order (most significant byte first), as in `00:11:22:33:44:55`.
    package var address: [UInt8]
    /// LE only: 0 public, 1 random (from AD type 0x1B).
    package var addressType: UInt8?
    package var dataStructures: [DataStructure]

    package init(
        transport: Transport, address: [UInt8], addressType: UInt8? = nil, dataStructures: [DataStructure] = []
    ) {
        self.transport = transport
        self.address = address
        self.addressType = addressType
        self.dataStructures = dataStructures
    }

    static func transport(of record: NDEFRecord) -> Transport? {
        guard record.tnf == .media else { return nil }
        let t = String(decoding: record.type, as: UTF8.self).lowercased()
        return Transport(rawValue: t)
    }

    /// `AA:BB:CC:DD:EE:FF`.
    package var addressString: String {
        address.map { b in
            let h = String(b, radix: 16, uppercase: true)
            return h.count == 1 ? "0" + h : h
        }.joined(separator: ":")
    }

    func data(_ types: UInt8...) -> [UInt8]? { dataStructures.first { types.contains($0.type) }?.data }

    /// Complete (0x09) or shortened (0x08) local name.
    package var localName: String? { data(0x09, 0x08).map { String(decoding: $0, as: UTF8.self) } }
    /// Class of device (0x0D), 24 bits.
    package var classOfDevice: UInt32? {
        guard let d = data(0x0D), d.count == 3 else { return nil }
        return UInt32(d[0]) | UInt32(d[1]) << 8 | UInt32(d[2]) << 16
    }
    /// 16-bit service class UUIDs (0x02 incomplete, 0x03 complete list).
    package var serviceUUIDs16: [UInt16] {
        dataStructures.filter { $0.type == 0x02 || $0.type == 0x03 }.flatMap { s in
            stride(from: 0, to: s.data.count - 1, by: 2).map { UInt16(s.data[$0]) | UInt16(s.data[$0 + 1]) << 8 }
        }
    }
    /// LE appearance (0x19).
    package var appearance: UInt16? {
        guard let d = data(0x19), d.count == 2 else { return nil }
        return UInt16(d[0]) | UInt16(d[1]) << 8
    }
    /// LE role (0x1C): 0 peripheral only, 1 central only, 2 both with peripheral preferred, 3 both with central.
    package var role: UInt8? { data(0x1C)?.first }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        guard let transport = Self.transport(of: record) else {
            throw NDEFError(.wrongRecordType, at: record.payloadOffset, detail: "expected a Bluetooth OOB MIME type")
        }
        self.transport = transport
        var c = PayloadCursor(record, code: .invalidBluetoothCarrier)
        addressType = nil
        if transport == .classic {
            let lengthOffset = c.offset
            let lo = try c.byte()
            let hi = try c.byte()
            let oobLength = Int(lo) | Int(hi) << 8
            if oobLength != record.payload.count {
                try violate(
                    .invalidBluetoothCarrier, at: lengthOffset, options, &repairs,
                    detail: "OOB length \(oobLength) but payload has \(record.payload.count) bytes",
                    action: "used the payload length")
            }
            address = Array(try c.take(6).reversed())
        } else {
            address = []
        }
        dataStructures = []
        while !c.isAtEnd {
            let at = c.offset
            let length = Int(try c.byte())
            if length == 0 { break }
            guard length - 1 <= c.remaining else {
                throw NDEFError(.invalidBluetoothCarrier, at: at, detail: "structure longer than the payload")
            }
            let type = try c.byte()
            dataStructures.append(DataStructure(type: type, data: Array(try c.take(length - 1))))
        }
        if transport == .lowEnergy {
            if let a = data(0x1B), a.count == 7 {
                address = Array(a[0..<6].reversed())
                addressType = a[6]
            } else {
                try violate(
                    .invalidBluetoothCarrier, at: record.payloadOffset, options, &repairs,
                    detail: "no LE Bluetooth device address", action: "left the address empty")
            }
            if role == nil {
                try violate(
                    .invalidBluetoothCarrier, at: record.payloadOffset, options, &repairs, detail: "no LE role",
                    action: "accepted it")
            }
        }
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        guard address.count == 6 else {
            throw NDEFError(.invalidBluetoothCarrier, at: 0, detail: "address is not 6 bytes")
        }
        var p: [UInt8] = []
        var structures = dataStructures
        if transport == .classic {
            p = [0, 0]
            p.append(contentsOf: address.reversed())
        } else if !structures.contains(where: { $0.type == 0x1B }) {
            structures.insert(DataStructure(type: 0x1B, data: address.reversed() + [addressType ?? 0]), at: 0)
        }
        for s in structures {
            guard s.data.count < 255 else {
                throw NDEFError(.invalidBluetoothCarrier, at: 0, detail: "structure too long")
            }
            p.append(UInt8(s.data.count + 1))
            p.append(s.type)
            p.append(contentsOf: s.data)
        }
        if transport == .classic {
            guard p.count <= 0xFFFF else { throw NDEFError(.invalidBluetoothCarrier, at: 0, detail: "too long") }
            p[0] = UInt8(p.count & 0xFF)
            p[1] = UInt8(p.count >> 8)
        }
        let type = Array(transport.rawValue.utf8)
        return NDEFRecord(unchecked: .media, type: type[...], id: [], payload: p[...])
    }
}
