import OpenNFCPCSC
import OpenNFCRF

/// `--device pcsc` / `pcsc:<reader>`: a reader through pcscd (OpenNFCPCSC's ``PCSCFrontend``).
///
/// The reader is chosen by exact name, or by a part of its name that only one reader has (`pcsc:ACR122`).
/// Waiting for a tag blocks in `SCardGetStatusChange` (no polling loop), in slices of at most half a second so that
/// Ctrl-C during a batch run is noticed promptly.
final class PCSCDevice: Device {
    let context: PCSCContext
    let reader: String
    let pcsc: PCSCFrontend
    let clock: any NFCClock = WallClock()

    var name: String { "pcsc:\(reader)" }
    var frontend: any RFFrontend { pcsc }
    var tagsRemaining: Int? { nil }
    var waitsForPeople: Bool { true }

    /// Opens the reader `wanted` names, or the only reader when `wanted` is nil. `implicit` says the user gave no
    /// `--device` (the error then mentions the simulated device).
    init(wanted: String?, implicit: Bool) throws {
        let ctx: PCSCContext
        let readers: [String]
        do {
            ctx = try PCSCContext()
            readers = try ctx.requireReaders()
        } catch {
            if implicit {
                throw CLIError.failure(
                    "no --device given and no PC/SC reader is usable (\(error.detail)); use --device sim:<tagfile> "
                        + "to work on a tag file")
            }
            throw CLIError.failure(error.detail)
        }
        context = ctx
        reader = try Self.choose(wanted, from: readers)
        pcsc = PCSCFrontend(context: ctx, reader: reader)
    }

    static func choose(_ wanted: String?, from readers: [String]) throws -> String {
        let list = readers.map { "'\($0)'" }.joined(separator: ", ")
        guard let wanted else {
            if readers.count == 1 { return readers[0] }
            throw CLIError.failure(
                "\(readers.count) PC/SC readers are connected (\(list)); choose one with --device pcsc:<reader>")
        }
        if let exact = readers.first(where: { $0 == wanted }) { return exact }
        let matches = readers.filter { $0.lowercased().contains(wanted.lowercased()) }
        if matches.count == 1 { return matches[0] }
        if matches.isEmpty { throw CLIError.failure("no PC/SC reader matches '\(wanted)'; the readers are \(list)") }
        throw CLIError.failure(
            "'\(wanted)' matches \(matches.count) PC/SC readers (\(matches.map { "'\($0)'" }.joined(separator: ", "))); "
                + "give more of the name")
    }

    func waitForTag(timeout: NFCDuration) throws -> RFTarget? {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let left = deadline.duration(since: clock.now)
            let slice = UInt32(min(left.nanoseconds / 1_000_000, 500))
            let found: [RFTarget]
            do {
                found = try pcsc.waitForTargets([.nfcA, .nfcB], timeoutMilliseconds: slice)
            } catch {
                throw CLIError.failure("the reader failed while waiting for a tag: \(error)")
            }
            if let t = found.first { return t }
            if Interrupt.requested || clock.now >= deadline { return nil }
        }
    }

    func release() throws {}

    func waitForRemoval(timeout: NFCDuration) throws -> Bool {
        let deadline = clock.now.advanced(by: timeout)
        while true {
            let left = deadline.duration(since: clock.now)
            let slice = UInt32(min(left.nanoseconds / 1_000_000, 500))
            do {
                if try context.waitForRemoval(on: reader, timeoutMilliseconds: slice) { return true }
            } catch {
                throw CLIError.failure("the reader failed while waiting for the tag to be removed: \(error.detail)")
            }
            if Interrupt.requested || clock.now >= deadline { return false }
        }
    }

    func close() { pcsc.deactivate() }
}
