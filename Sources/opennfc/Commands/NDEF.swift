extension Commands {
    /// `opennfc ndef`: the NDEF codec on the command line.
    static let ndef = Command(
        name: "ndef",
        abstract: "Decode and encode NDEF messages.",
        discussion: """
            The NFC Forum NDEF codec with the typed records of the NFC Forum RTDs (Text, URI, Smart Poster,
            MIME, external, absolute URI, Android Application Record, Connection Handover with Bluetooth and
            Wi-Fi carriers, Signature, Device Information). docs/NDEF.md describes strict and lenient decoding
            and the JSON schema.
            """,
        subcommands: [ndefDecode, ndefEncode]
    )
}
