extension Type4NDEF {
    /// Empties the NDEF file (UPDATE BINARY NLEN = 0). Creating the NDEF application on a blank card is not
    /// supported (``TagError/Code/unsupported``).
    public func format() throws(TagError) {
        guard case .ndef(var layout) = try detectLayout() else {
            throw TagError(.unsupported, "the card has no NDEF application; creating one is not supported")
        }
        guard layout.cc.isWritable else {
            throw TagError(.readOnly, "NDEF file write access is \(layout.cc.writeAccess): the tag is read-only")
        }
        guard layout.messageLength != 0 else { return }
        try selectNDEFFile(layout)
        try update(offset: 0, [0x00, 0x00][...])
        layout.messageLength = 0
        layout.message = []
        state = .ndef(layout)
    }
}
