#!/usr/bin/env python3
"""The field's web page in a real headless Chromium, driven with Selenium.

Starts `opennfc field serve` with one tag file, opens the page, and checks with separate app processes:
the app's sheet appears on the page; putting the tag on the phone from the page lets `opencorenfc-example` read it;
Cancel on the page ends the app's session with 200; `opennfc write` through the field changes the memory map shown
on the page with the changed bytes marked; the transcript shows what the app received (didDetect…, the invalidation
code); `opennfc read` polling shows "Ready to Scan"; Save writes the tag file; the terminal panel plays a contactless terminal against
`opencorenfc-example card` (a CardSession over remote:): the field, SELECT, GET DATA and the card's events. Exit status 0 when everything holds, 1 with the first failure, 77 when
Chromium, chromedriver or Selenium is missing (the caller reports it as skipped).

Usage: field-browser.py --opennfc BIN --example BIN --workdir DIR [--screenshots DIR]
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request

try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select, WebDriverWait
except ImportError:
    print("SKIP: Selenium is not installed (pip install selenium)", file=sys.stderr)
    sys.exit(77)

WAIT = 20


def find(*names):
    for n in names:
        p = shutil.which(n)
        if p:
            return p
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--opennfc", required=True)
    ap.add_argument("--example", required=True)
    ap.add_argument("--workdir", required=True)
    ap.add_argument("--screenshots")
    args = ap.parse_args()

    chromium = find("chromium", "chromium-browser", "google-chrome")
    driver_path = find("chromedriver")
    if not chromium or not driver_path:
        print("SKIP: chromium and chromedriver are needed (apt-get install chromium chromium-driver)", file=sys.stderr)
        return 77

    work = args.workdir
    os.makedirs(work, exist_ok=True)
    tag = os.path.join(work, "poster.json")
    subprocess.run([args.opennfc, "tag", "new", "--chip", "ntag215", "--uid", "04A1B2C3D4E5F6",
                    "--uri", "https://example.com/browser", "-o", tag], check=True, capture_output=True)
    children = []
    serve = subprocess.Popen([args.opennfc, "field", "serve", "--port", "0", tag], stdout=subprocess.PIPE,
                             stderr=subprocess.DEVNULL, text=True)
    children.append(serve)
    url = serve.stdout.readline().strip()
    port = url.rsplit(":", 1)[1].rstrip("/")
    env = {k: v for k, v in os.environ.items() if not k.startswith("OPENCORENFC_")}
    env.update({"OPENCORENFC_DEVICE": "remote:" + port, "OPENCORENFC_PROFILE": "desktop"})

    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for a in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
              "--window-size=1400,900", "--no-first-run", "--disable-extensions"]:
        options.add_argument(a)
    browser = webdriver.Chrome(service=Service(driver_path), options=options)
    failures = []

    def check(ok, what):
        if not ok:
            failures.append(what)
            raise AssertionError(what)

    def wait(cond, what):
        try:
            WebDriverWait(browser, WAIT).until(lambda d: cond())
        except Exception:
            try:
                shown = browser.find_element(By.ID, "error").text
                state = urllib.request.urlopen(url + "api/state", timeout=5).read().decode()
            except Exception as e:
                shown, state = "", "(no state: %s)" % e
            check(False, "timed out waiting for %s (page error: %r; state: %s)" % (what, shown, state))

    def text(id_):
        return browser.find_element(By.ID, id_).text

    def click(name, css, effect, what):
        """Clicks a shelf card's button until `effect` shows, again (every button's action is idempotent) if the
        page re-rendered under the click: a press and a release that land on two renderings of the button are no
        click at all."""
        selector = '#shelf .tag[data-name="%s"] button.%s' % (name, css)
        clicked = [0.0]

        def attempt():
            try:
                browser.find_element(By.CSS_SELECTOR, selector).click()
                return True
            except Exception:
                return False

        def pressed_until_done():
            if effect():
                return True
            if time.monotonic() - clicked[0] > 3 and attempt():
                clicked[0] = time.monotonic()
            return False
        wait(pressed_until_done, what)

    def shown(selector):
        try:
            return len(browser.find_elements(By.CSS_SELECTOR, selector)) == 1
        except Exception:
            return False

    def card_text(name):
        try:
            return browser.find_element(By.CSS_SELECTOR, '#shelf .tag[data-name="%s"]' % name).text
        except Exception:
            return ""

    on_phone = '#shelf .tag[data-name="poster.json"] button.remove'
    on_shelf = '#shelf .tag[data-name="poster.json"] button.put'

    def shot(name):
        if args.screenshots:
            browser.save_screenshot(os.path.join(args.screenshots, name))

    def example():
        p = subprocess.Popen([args.example], env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        children.append(p)
        return p

    try:
        browser.get(url)
        wait(lambda: text("address") == url, "the page to load")
        # 1. The app's sheet appears; putting the tag on the phone lets the app read it.
        app = example()
        wait(lambda: "shown" in browser.find_element(By.ID, "sheet").get_attribute("class"), "the app's sheet")
        wait(lambda: text("sheetmessage") == "Hold your iPhone near the tag.", "the sheet's message")
        check("opencorenfc-example" in text("appname"), "the app's name in the header")
        shot("field-sheet.png")
        click("poster.json", "put", effect=lambda: shown(on_phone), what="the tag on the phone")
        out, err = app.communicate(timeout=WAIT)
        check(app.returncode == 0 and out == "URI https://example.com/browser\n", "the app read the tag: %r %r" % (out, err))
        print("ok: put a tag on the phone from the page, the app read it")
        # What the app received is in the transcript between the frames, as Core NFC names it.
        wait(lambda: "didDetect" in text("transcript"), "the app's didDetect in the transcript")
        # 2. Cancel on the page: the app's session ends with 200.
        click("poster.json", "remove", effect=lambda: shown(on_shelf), what="the tag back on the shelf")
        app = example()
        wait(lambda: "shown" in browser.find_element(By.ID, "sheet").get_attribute("class"), "the second app's sheet")
        # The sheet slides in (a .25 s transition): Cancel takes clicks once it is there.
        def cancel():
            try:
                browser.find_element(By.ID, "cancel").click()
                return True
            except Exception:
                return False
        wait(cancel, "Cancel to take the click")
        out, err = app.communicate(timeout=WAIT)
        check(app.returncode == 1 and "Session invalidated by user" in err, "Cancel ended the session: %r" % err)
        print("ok: Cancel on the page ended the app's session with 200 (Session invalidated by user)")
        wait(lambda: "didInvalidateWithError: 200 readerSessionInvalidationErrorUserCanceled" in text("transcript"),
             "the invalidation code in the transcript")
        print("ok: the transcript shows what the app received: didDetect and didInvalidateWithError: 200")
        # 3. The app writes: the memory map on the page changes; Save writes the file.
        wait(lambda: "app:" not in text("appname"), "the app to disconnect")
        # A command polling through the field (no sheet of its own): the phone shows "Ready to Scan" until a tag
        # comes, without Cancel.
        reader = subprocess.Popen([args.opennfc, "read", "--device", "remote:" + port, "--timeout", "20"],
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        children.append(reader)
        wait(lambda: "shown" in browser.find_element(By.ID, "sheet").get_attribute("class")
             and text("sheettitle") == "Ready to Scan" and "polling" in text("sheetmessage"), "Ready to Scan while polling")
        check(not browser.find_element(By.ID, "cancel").is_displayed(), "no Cancel for a command's polling")
        shot("field-polling.png")
        click("poster.json", "put", effect=lambda: shown(on_phone), what="the tag on the phone for the polling read")
        out, err = reader.communicate(timeout=WAIT)
        check(reader.returncode == 0 and "https://example.com/browser" in out, "the polling read: %r %r" % (out, err))
        wait(lambda: "shown" not in browser.find_element(By.ID, "sheet").get_attribute("class"), "the sheet to go")
        print("ok: the phone shows Ready to Scan while a command polls, and the command read the tag put then")
        wait(lambda: "app:" not in text("appname"), "the command to disconnect")
        click("poster.json", "put", effect=lambda: shown(on_phone), what="the tag on the phone again")
        click("poster.json", "memory", effect=lambda: "https://example.com/browser" in text("memtext"),
              what="the memory map")
        w = subprocess.run([args.opennfc, "write", "--device", "remote:" + port, "--uri", "https://example.org/written",
                            "--text", "written from the app", "--timeout", "10"], capture_output=True, text=True)
        check(w.returncode == 0, "opennfc write through the field: " + w.stderr)
        wait(lambda: "https://example.org/written" in text("memtext"), "the memory map to show the new message")

        def marks():
            return browser.execute_script(
                "return [...document.querySelectorAll('#memtext mark')].map(m => m.textContent)")
        wait(lambda: len([m for m in marks() if len(m) == 2]) >= 8, "the changed bytes marked in the memory map")
        check(not any("UID" in m for m in marks()), "the UID page is not marked: %r" % marks())
        print("ok: the memory map marks the bytes the app changed (%d bytes)" % len([m for m in marks() if len(m) == 2]))
        wait(lambda: "unsaved" in card_text("poster.json"), "the unsaved badge")
        wait(lambda: "> A2" in text("transcript"), "the WRITE frames in the transcript")
        check("WRITE page" in text("transcript"), "the --trace comments in the transcript")
        # The picture shows the first changed byte of the map.
        browser.execute_script(
            "const m = [...document.querySelectorAll('#memtext mark')].find(m => m.textContent.length === 2);"
            "if (m) { const box = document.getElementById('memory');"
            " box.scrollTop += m.getBoundingClientRect().top - box.getBoundingClientRect().top - 60; }")
        shot("field-memory.png")
        click("poster.json", "save",
              effect=lambda: card_text("poster.json") != "" and "unsaved" not in card_text("poster.json"),
              what="the save")
        show = subprocess.run([args.opennfc, "tag", "show", tag], capture_output=True, text=True)
        check("https://example.org/written" in show.stdout, "the saved file holds the new message")
        print("ok: the app wrote, the page's memory map changed, Save wrote the tag file")
        # 4. The time axis: every frame a bar whose width is its air time at one scale, gaps between them.
        bars = browser.execute_script(
            "return [...document.querySelectorAll('#timeline .bar')].map(b => "
            "[Number(b.dataset.air), b.getBoundingClientRect().width, b.className])")
        gaps = browser.execute_script("return document.querySelectorAll('#timeline .gap').length")
        check(len(bars) >= 10, "bars on the time axis: %d" % len(bars))
        check(any("out" in b[2] for b in bars) and any("in" in b[2] for b in bars), "reader and card frames both drawn")
        ratios = [w / air for air, w, _ in bars if air > 0]
        check(max(ratios) - min(ratios) < 0.01 * max(ratios),
              "bar widths proportional to air time: %r" % sorted(set(round(r, 5) for r in ratios)))
        check(len(set(air for air, _, _ in bars)) > 2, "bars of different lengths")
        # Every frame but an activation's first (WUPA, after no required gap) follows a gap.
        check(gaps >= len(bars) * 9 // 10, "gaps between the frames: %d for %d bars" % (gaps, len(bars)))
        total = browser.execute_script("return document.getElementById('airtotal').textContent")
        check("ms of frames and gaps" in total, "the total on the air: %r" % total)
        shot("field-timeline.png")
        print("ok: the time axis draws every frame as a bar as long as its air time, with the gaps between")
        # 5. The terminal panel against an app's CardSession over remote:.
        entitlements = os.path.join(work, "App.entitlements")
        with open(entitlements, "w") as f:
            f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict>\n'
                    '<key>com.apple.developer.nfc.hce</key><true/>\n'
                    '<key>com.apple.developer.nfc.hce.iso7816.select-identifier-prefixes</key>\n'
                    '<array><string>F04C4F59414C</string></array>\n</dict></plist>\n')
        card_env = dict(env, OPENCORENFC_ENTITLEMENTS=entitlements)
        card = subprocess.Popen([args.example, "card"], env=card_env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                text=True)
        children.append(card)
        wait(lambda: "emulates a card (AIDs F04C4F59414C)" in text("cardstatus"), "the app's card on the page")

        def log_lines():
            # Read in one script: the page re-renders the log as it changes (no stale elements), and textContent
            # holds a line scrolled out of the log's box too (Selenium's .text is only what shows).
            return browser.execute_script(
                "return Array.from(document.querySelectorAll('#termlog div')).map(d => d.textContent)")

        browser.find_element(By.ID, "termfield").click()
        wait(lambda: "• readerDetected" in log_lines(), "readerDetected in the terminal's log")
        Select(browser.find_element(By.ID, "termexample")).select_by_value("loyalty")
        browser.find_element(By.ID, "termrun").click()
        wait(lambda: any(l.startswith("< 4D454D4245522D303034329000") for l in log_lines()),
             "the loyalty card's member number")
        lines = log_lines()
        check("> 00A4040006F04C4F59414C00" in "\n".join(lines), "the example's SELECT in the log: %r" % lines)
        check("• received 80CA000000" in lines, "the app's received event in the log: %r" % lines)
        print("ok: the terminal panel's loyalty example read the member number from opencorenfc-example card")
        # A SELECT of an AID the app did not declare: the phone answers 6A 82 itself; then the app's AID is no
        # longer selected and its handler answers 6D 00.
        before = len(log_lines())
        browser.find_element(By.ID, "termaid").send_keys("A0000000031010")
        browser.find_element(By.ID, "termselectbtn").click()
        wait(lambda: any(l.startswith("< 6A82") for l in log_lines()[before:]), "6A82 to a foreign SELECT")
        before = len(log_lines())
        browser.find_element(By.ID, "termapdu").send_keys("80CA000000")
        browser.find_element(By.ID, "termsendbtn").click()
        wait(lambda: any(l.startswith("< 6D00") for l in log_lines()[before:]), "6D00 after the foreign SELECT")
        browser.find_element(By.ID, "termremove").click()
        wait(lambda: "• readerDeselected" in log_lines(), "readerDeselected in the terminal's log")
        wait(lambda: "> 00A4040006F04C4F59414C00" in text("transcript") and "< 6A82" in text("transcript"),
             "the terminal's exchange in the transcript")
        shot("field-terminal.png")
        print("ok: typed SELECT and APDU got the phone's 6A82 and the handler's 6D00; the field's coming and going "
              "showed readerDetected and readerDeselected")
        # The layout beside the iOS Simulator: at 900 px and at 600 px nothing is wider than the
        # window and the terminal, the shelf and the transcript are all there.
        for width in (900, 600):
            browser.set_window_size(width, 900)
            wait(lambda: browser.execute_script("return document.documentElement.scrollWidth <= window.innerWidth"),
                 "no horizontal scrolling at %d px" % width)
            for id_ in ("terminalpanel", "shelf", "transcript", "memory"):
                check(browser.find_element(By.ID, id_).size["width"] > 0, "%s shown at %d px" % (id_, width))
            shot("field-%d.png" % width)
        browser.set_window_size(1400, 900)
        print("ok: the page fits 900 px and 600 px windows without horizontal scrolling")
        os.kill(card.pid, signal.SIGKILL)
        card.wait()
        wait(lambda: "No app is connected." in text("cardstatus"), "the card gone with the app")
        err = card.stderr.read()
        check("emulating" in err and "reader detected" in err and "reader deselected" in err,
              "the app's own log: %r" % err)
        print("ok: the app's card left the page with the app")
    except AssertionError:
        pass
    finally:
        browser.quit()
        for c in children:
            if c.poll() is None:
                os.kill(c.pid, signal.SIGKILL)
                c.wait()
    for f in failures:
        print("FAIL: " + f, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
