internal import OpenNFCBytes

/// The bytes of a hex literal written in a test (spaces allowed). A malformed literal is a bug in the test itself,
/// so it traps with the literal in the message.
package func h(_ literal: String) -> [UInt8] {
    do {
        return try Hex.decode(literal)
    } catch {
        fatalError("malformed hex literal in a test: \"\(literal)\" (\(error))")
    }
}

/// `bytes` as hex digits without separators, uppercase as the CLI and the transcripts print them.
package func hex(_ bytes: some Collection<UInt8>, uppercase: Bool = true) -> String {
    Hex.encode(bytes, uppercase: uppercase)
}
