extension NFCSystem {
    /// Whether the app is in the foreground.
    package var appInForeground: Bool { perform { arbiter.appInForeground } }
}
