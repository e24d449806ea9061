internal import Foundation
internal import OpenNFCRF
internal import OpenNFCRemote

/// The `remote:` device: the app's reader is a virtual field served by `opennfc field serve` on loopback
/// (docs/FIELD.md), through OpenNFCRemote's ``RemoteFieldFrontend``.
///
/// | Device string | Field |
/// |---|---|
/// | `remote:` | `127.0.0.1` on the default port (7071) |
/// | `remote:<port>`, `remote:127.0.0.1:<port>` | that port; only loopback addresses are accepted |
///
/// The system runs on the wall clock (a person drives the field). Tags arriving or leaving make the active session
/// poll again; the sheet is shown by the field; Cancel there is the user's Cancel here (200). When the connection
/// is lost, the exchange in flight fails as a tag leaving (100) and the device then has no reader: polls fail and
/// a new session ends with `readerErrorUnsupportedFeature`.
enum RemoteFieldDevice {
    static let scheme = DeviceScheme(
        name: "remote",
        help: "remote:[<port>|127.0.0.1:<port>] — the virtual field of 'opennfc field serve' (default port 7071)"
    ) { (argument: String) throws(DeviceError) -> OpenedDevice in
        let frontend: RemoteFieldFrontend
        do throws(DeviceConnectError) {
            let address = try RemoteDeviceString.address(argument)
            let name = (CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent }) ?? "app"
            frontend = try RemoteFieldFrontend(address: address, appName: name)
        } catch {
            throw DeviceError(error.message)
        }
        return OpenedDevice(
            frontend: InstrumentedFrontend(frontend), clock: .wall,
            connect: { system in
                frontend.onEvent = { [weak system] event in
                    guard let system else { return }
                    switch event {
                    case .fieldChanged, .lost: system.fieldDidChange()
                    case .cancel: system.userTappedCancel()
                    }
                }
                system.sheetDidChange = { sheet in
                    frontend.send(
                        sheet: FieldProtocol.Sheet(
                            presented: sheet.isPresented, title: sheet.title, message: sheet.message,
                            glyph: sheet.glyph.rawValue))
                }
            })
    }
}
