extension Type4NDEF {
    /// Makes the NDEF file read-only the NFC Forum way (T4T 2.0 §5.1.2): SELECT the CC file
    /// and UPDATE BINARY its write access byte (offset 14) to `FF`. A card that refuses (its CC file write-protected,
    /// as on many commercial Type 4 chips that need a proprietary command) gives
    /// ``TagError/Code/cannotMakeReadOnly`` with the status word.
    package func makeReadOnly() throws(TagError) {
        var layout = try requireLayout()
        guard layout.cc.isWritable else { return }
        selectedFile = nil
        let select = try link.send(
            Type4Command.selectFile(Type4Command.ccFileID, v2: layout.v2), name: "SELECT CC file")
        guard select.isSuccess else {
            throw TagError(.cannotMakeReadOnly, "SELECT CC file refused", statusWord: select.sw)
        }
        selectedFile = Type4Command.ccFileID
        // Offset 14 in the NDEF File Control TLV, 16 in the ENDEF one (its size has 4 bytes).
        let r = try link.send(
            Type4Command.updateBinary(offset: layout.cc.writeAccessOffset, data: [0xFF][...]),
            name: "UPDATE BINARY CC write access")
        guard r.isSuccess else {
            throw TagError(.cannotMakeReadOnly, "the card refuses to update its CC file", statusWord: r.sw)
        }
        layout.cc.writeAccess = 0xFF
        state = .ndef(layout)
    }
}
