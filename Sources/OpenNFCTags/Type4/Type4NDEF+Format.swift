extension Type4NDEF {
    /// Empties the NDEF file (UPDATE BINARY NLEN = 0). On a DESFire EV1 or later without the NDEF application,
    /// creates it (``formatDESFire(_:)``); on other cards without it: ``TagError/Code/unsupported``.
    package func format() throws(TagError) {
        guard case .ndef(var layout) = try detectLayout() else {
            if let desfire, desfire.generation != .ev0 {
                try formatDESFire(desfire)
                state = .unknown
                selectedFile = nil
                return
            }
            throw TagError(.unsupported, "the card has no NDEF application; creating one is not supported")
        }
        guard layout.cc.isWritable else {
            throw TagError(.readOnly, "NDEF file write access is \(layout.cc.writeAccess): the tag is read-only")
        }
        guard layout.messageLength != 0 else { return }
        try selectNDEFFile(layout)
        try update(offset: 0, Array(repeating: 0, count: layout.cc.lengthFieldSize)[...])
        layout.messageLength = 0
        layout.message = []
        state = .ndef(layout)
    }
}
