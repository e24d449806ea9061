extension Commands {
    static let passport = Command(
        name: "passport",
        abstract: "Read and verify ePassports and eID cards (ICAO Doc 9303); see docs/PASSPORT.md.",
        subcommands: [passportRead]
    )
}
