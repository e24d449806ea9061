/// Calls a current iOS refuses on every delivered tag (the iOS 11 ISO 15693 calls, docs/DIFFERENCES.md "iOS 11 ISO
/// 15693 calls").
extension NFCSystem {
    /// Checks the session and the tag as every command does (103 invalidated, 100 gone, 104 not connected), then
    /// fails with `unsupportedFeature` and `reason`, sending nothing.
    package func refuse(_ ref: TagReference, _ reason: String) throws(SystemError) {
        try operation(ref) { (_, _, _) throws(SystemError) in
            throw SystemError(.unsupportedFeature, reason)
        }
    }
}
