/// The Device Information record, well-known type `Di` (NFC Forum Device Information RTD 1.0 §3): a list of
/// TLVs — 0 manufacturer name, 1 model name, 2 device (unique) name, 3 UUID (16 bytes), 4 firmware version; other
/// types are kept in ``otherElements``. Manufacturer and model are required (strict).
package struct NDEFDeviceInformationRecord: NDEFTypedRecord {
    /// A TLV of a type this decoder does not name.
    package struct Element: Hashable, Sendable {
        package var type: UInt8
        package var value: [UInt8]
        package init(type: UInt8, value: [UInt8]) {
            self.type = type
            self.value = value
        }
    }

    package var manufacturer: String
    package var model: String
    package var deviceName: String?
    package var uuid: [UInt8]?
    package var firmwareVersion: String?
    package var otherElements: [Element]

    package init(
        manufacturer: String, model: String, deviceName: String? = nil, uuid: [UInt8]? = nil,
        firmwareVersion: String? = nil, otherElements: [Element] = []
    ) {
        self.manufacturer = manufacturer
        self.model = model
        self.deviceName = deviceName
        self.uuid = uuid
        self.firmwareVersion = firmwareVersion
        self.otherElements = otherElements
    }

    package init(
        decoding record: borrowing NDEFRecord, options: NDEFDecodingOptions, repairs: inout [NDEFRepair]
    ) throws(NDEFError) {
        try record.expectWellKnown("Di")
        var c = PayloadCursor(record, code: .invalidDeviceInformation)
        var manufacturer: String? = nil
        var model: String? = nil
        deviceName = nil
        uuid = nil
        firmwareVersion = nil
        otherElements = []
        while !c.isAtEnd {
            let type = try c.byte()
            let n = Int(try c.byte())
            let at = c.offset
            let value = try c.take(n)
            func text() throws(NDEFError) -> String {
                try decodeUTF8(value, at: at, code: .invalidDeviceInformation, options: options, repairs: &repairs)
            }
            switch type {
            case 0: manufacturer = try text()
            case 1: model = try text()
            case 2: deviceName = try text()
            case 3:
                if n != 16 {
                    try violate(
                        .invalidDeviceInformation, at: at, options, &repairs, detail: "UUID is not 16 bytes",
                        action: "kept it")
                }
                uuid = Array(value)
            case 4: firmwareVersion = try text()
            default: otherElements.append(Element(type: type, value: Array(value)))
            }
        }
        if manufacturer == nil || model == nil {
            try violate(
                .invalidDeviceInformation, at: record.payloadOffset, options, &repairs,
                detail: "manufacturer and model are required", action: "used empty names")
        }
        self.manufacturer = manufacturer ?? ""
        self.model = model ?? ""
    }

    package func record() throws(NDEFError) -> NDEFRecord {
        var p: [UInt8] = []
        func add(_ type: UInt8, _ value: [UInt8]) throws(NDEFError) {
            guard value.count <= 255 else {
                throw NDEFError(.invalidDeviceInformation, at: 0, detail: "element longer than 255 bytes")
            }
            p.append(type)
            p.append(UInt8(value.count))
            p += value
        }
        try add(0, Array(manufacturer.utf8))
        try add(1, Array(model.utf8))
        if let deviceName { try add(2, Array(deviceName.utf8)) }
        if let uuid { try add(3, uuid) }
        if let firmwareVersion { try add(4, Array(firmwareVersion.utf8)) }
        for e in otherElements { try add(e.type, e.value) }
        return .wellKnown("Di", payload: p)
    }
}
