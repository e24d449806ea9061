import Foundation
import OpenNFCTestSupport
import Testing

/// The field's web page in a real headless Chromium driven by Selenium (scripts/field-browser.py): the app's sheet
/// on the page, put a tag → the app reads it, Cancel → 200, the app writes → the memory map changes, Save; the
/// terminal panel against `opencorenfc-example card` over `remote:`; the time axis draws each frame as a bar
/// whose width is proportional to its air time.
/// Runs when scripts/test could install the browser (it exports `OPENNFC_E2E_BROWSER=1`); skipped visibly otherwise.
@Suite struct FieldBrowserTests {
    static let enabled = ProcessInfo.processInfo.environment["OPENNFC_E2E_BROWSER"] == "1"

    @Test(
        .enabled(
            if: enabled,
            "OPENNFC_E2E_BROWSER is not set: chromium, chromedriver and selenium are not installed (scripts/test installs them with scripts/browser install; or install them and export OPENNFC_E2E_BROWSER=1)"
        ))
    func thePageDrivesTheFieldInChromium() throws {
        let work = try FieldFixture.directory()
        let browser = try TestProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            [
                "python3", TestProcess.repositoryRoot.appendingPathComponent("scripts/field-browser.py").path,
                "--opennfc", FieldFixture.executable("opennfc").path,
                "--example", FieldFixture.executable("opencorenfc-example").path, "--workdir", work.path,
            ])
        let text = browser.stdout + browser.stderr
        #expect(browser.status == 0, "\(text)")
        #expect(text.contains("ok: put a tag on the phone from the page, the app read it"))
        #expect(text.contains("ok: Cancel on the page ended the app's session with 200"))
        #expect(text.contains("ok: the app wrote, the page's memory map changed, Save wrote the tag file"))
        #expect(text.contains("ok: the terminal panel's loyalty example read the member number"))
        #expect(text.contains("ok: typed SELECT and APDU got the phone's 6A82 and the handler's 6D00"))
        #expect(text.contains("ok: the app's card left the page with the app"))
        #expect(text.contains("ok: the page fits 900 px and 600 px windows without horizontal scrolling"))
        #expect(
            text.contains("ok: the transcript shows what the app received: didDetect and didInvalidateWithError: 200"))
        #expect(text.contains("ok: the phone shows Ready to Scan while a command polls"))
        #expect(text.contains("ok: the memory map marks the bytes the app changed"))
        #expect(
            text.contains("ok: the time axis draws every frame as a bar as long as its air time, with the gaps between")
        )
    }
}
