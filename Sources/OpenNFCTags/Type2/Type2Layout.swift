/// What NDEF detection learnt about a Type 2 tag: the CC and where the NDEF TLV sits in the usable data area
/// (T2T §7.4 "NDEF detection procedure"). The TLV facts are the shared ``NDEFTLVLayout``'s, reached as members.
@dynamicMemberLookup
struct Type2Layout: Hashable, NDEFLayoutDescribing {
    var cc: Type2CapabilityContainer
    var tlv: NDEFTLVLayout

    subscript<T>(dynamicMember path: WritableKeyPath<NDEFTLVLayout, T>) -> T {
        get { tlv[keyPath: path] }
        set { tlv[keyPath: path] = newValue }
    }

    subscript<T>(dynamicMember path: KeyPath<NDEFTLVLayout, T>) -> T { tlv[keyPath: path] }

    /// Addresses of the length field for the given form.
    func lengthAddresses(long: Bool) -> [Int] { tlv.lengthAddresses(long: long) }

    /// Address of the first value byte for the given length form.
    func valueStart(long: Bool) -> Int { tlv.valueStart(long: long) }

    var status: NDEFStatus { cc.writeAccess == 0 ? .readWrite : .readOnly }

    var detection: NDEFDetection {
        NDEFDetection(status: status, capacity: tlv.capacity, messageLength: tlv.messageLength)
    }
}
