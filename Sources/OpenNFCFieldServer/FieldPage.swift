/// The web page at `/` (docs/FIELD.md "The page"): the phone's sheet, the shelf with the "new tag" form, the tags
/// on the phone, Cancel, the terminal (a contactless terminal played against the app's `CardSession`), the live
/// transcript and each tag's memory map. It is self-contained (no outside assets) and
/// does everything through the HTTP/JSON API, polling `/api/state` a few times a second. The time axis under the
/// transcript draws every frame as a bar as long as its air time (reader frames above, card frames below, the gaps
/// the standards require between them) at a fixed scale, so a person sees where a read spends its time.
enum FieldPage {
    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>OpenCoreNFC field</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        :root { --bg:#f2f2f7; --card:#fff; --ink:#1c1c1e; --dim:#6e6e73; --blue:#0a84ff; --red:#ff3b30; --line:#d1d1d6; }
        * { box-sizing: border-box; }
        body { margin:0; font:14px -apple-system, "Segoe UI", Helvetica, Arial, sans-serif; background:var(--bg); color:var(--ink); }
        header { padding:10px 18px; background:#1c1c1e; color:#fff; display:flex; gap:18px; align-items:baseline; }
        header h1 { font-size:17px; margin:0; } header span { color:#aeaeb2; }
        main { display:grid; grid-template-columns: 330px minmax(0, 1fr) minmax(0, 1.4fr); gap:16px; padding:16px; }
        section { background:var(--card); border-radius:12px; padding:12px 14px; box-shadow:0 1px 2px rgba(0,0,0,.08); }
        h2 { font-size:13px; text-transform:uppercase; letter-spacing:.04em; color:var(--dim); margin:4px 0 10px; }
        .phone { width:290px; height:560px; margin:0 auto; border:10px solid #1c1c1e; border-radius:44px; background:linear-gradient(#dfe9f5,#c9d6e8);
                 position:relative; overflow:hidden; }
        .phone .app { padding:40px 18px; text-align:center; color:#3a3a3c; overflow-wrap:anywhere; }
        .sheet { position:absolute; left:8px; right:8px; bottom:8px; background:#fff; border-radius:30px; padding:22px 18px 18px; text-align:center;
                 box-shadow:0 -2px 16px rgba(0,0,0,.15); transform:translateY(110%); transition:transform .25s; }
        .sheet.shown { transform:none; }
        .sheet .title { font-size:22px; color:#8e8e93; margin-bottom:14px; }
        .glyph { width:84px; height:84px; margin:6px auto 14px; border-radius:50%; border:3px solid var(--blue); position:relative; }
        .glyph::after { content:""; position:absolute; inset:18px; border-radius:50%; border:3px solid var(--blue); opacity:.5; animation:pulse 1.6s infinite; }
        .glyph.error { border-color:var(--red); } .glyph.error::after { content:"!"; inset:0; border:none; color:var(--red); font:bold 48px/78px sans-serif; opacity:1; animation:none; }
        @keyframes pulse { 50% { transform:scale(1.35); opacity:.1; } }
        .sheet .message { min-height:40px; font-size:15px; margin-bottom:16px; }
        button { font:inherit; border:0; border-radius:8px; padding:6px 11px; background:#e5e5ea; color:var(--ink); cursor:pointer; }
        button.primary { background:var(--blue); color:#fff; } button.danger { color:var(--red); }
        button:disabled { opacity:.4; cursor:default; }
        .sheet button { width:100%; padding:12px; font-size:17px; background:#e5e5ea; border-radius:14px; }
        .tag { border:1px solid var(--line); border-radius:10px; padding:8px 10px; margin-bottom:8px; }
        .tag.on { border-color:var(--blue); box-shadow:0 0 0 2px rgba(10,132,255,.2); }
        .tag.selected { background:#f0f6ff; }
        .tag .name { font-weight:600; } .tag .meta { color:var(--dim); font-size:12px; margin:2px 0 6px; font-family:ui-monospace, Menlo, monospace; }
        .badge { font-size:11px; border-radius:6px; padding:1px 6px; margin-left:6px; background:#ffe8cc; color:#9a5b00; }
        .badge.on { background:#d6e9ff; color:#0a5cc2; }
        .row { display:flex; gap:6px; flex-wrap:wrap; align-items:center; }
        input, select { font:inherit; padding:5px 7px; border:1px solid var(--line); border-radius:7px; }
        input.pos { width:46px; }
        form.new { display:grid; grid-template-columns: 80px 1fr; gap:6px 8px; align-items:center; margin-top:12px; border-top:1px solid var(--line); padding-top:10px; }
        pre { font:12px/1.45 ui-monospace, Menlo, monospace; margin:0; white-space:pre-wrap; word-break:break-all; }
        #memory { max-height:300px; overflow:auto; background:#fafafa; border-radius:8px; padding:8px; }
        #memtext mark { background:#ffd60a; color:inherit; border-radius:3px; }
        #transcript { height:330px; overflow:auto; background:#1c1c1e; color:#e5e5ea; border-radius:8px; padding:8px; }
        #transcript .out { color:#64d2ff; } #transcript .in { color:#a6e3a1; } #transcript .c { color:#8e8e93; }
        #transcript .sheet { color:#ffd60a; } #transcript .user { color:#ff9f0a; } #transcript .app { color:#bf5af2; }
        #transcript .terminal { color:#ff9f0a; } #transcript .card { color:#a6e3a1; }
        #error { color:var(--red); min-height:18px; margin-top:6px; }
        .col { display:flex; flex-direction:column; gap:16px; min-width:0; }
        /* Beside the iOS Simulator (900 px and narrower): the phone and the memory side by side, then one column. */
        @media (max-width: 1100px) { main { grid-template-columns: 330px minmax(0, 1fr); } main > section:last-child { grid-column: 1 / -1; } }
        @media (max-width: 760px) { main { grid-template-columns: minmax(0, 1fr); padding:10px; } .phone { width:100%; max-width:290px; } header { flex-wrap:wrap; } }
        form.term { display:grid; grid-template-columns: 48px 1fr auto; gap:6px; align-items:center; margin-top:8px; }
        form.term input { font-family:ui-monospace, Menlo, monospace; min-width:0; }
        #termlog { max-height:260px; overflow:auto; background:#1c1c1e; color:#e5e5ea; border-radius:8px; padding:8px; margin-top:10px; font:12px/1.45 ui-monospace, Menlo, monospace; }
        #termlog div { white-space:pre-wrap; word-break:break-all; }
        #termlog .command { color:#ff9f0a; } #termlog .answer { color:#a6e3a1; } #termlog .event { color:#bf5af2; } #termlog .field { color:#8e8e93; } #termlog .c { color:#8e8e93; }
        #timeline { height:64px; overflow-x:auto; overflow-y:hidden; white-space:nowrap; background:#1c1c1e; border-radius:8px; padding:8px; line-height:0; }
        #timeline span { display:inline-block; vertical-align:top; height:20px; }
        #timeline .bar.out { background:#64d2ff; } #timeline .bar.in { background:#a6e3a1; margin-top:24px; }
        #airtotal { color:var(--dim); font-size:12px; }
        </style></head>
        <body>
        <header><h1>OpenCoreNFC virtual field</h1><span id="address"></span><span id="appname">no app connected</span></header>
        <main>
        <section><h2>The phone</h2>
          <div class="phone"><div class="app" id="phoneapp">No app is connected.<br><br>Start one with<br><code id="hint"></code></div>
            <div class="sheet" id="sheet"><div class="title" id="sheettitle">Ready to Scan</div><div class="glyph" id="glyph"></div>
              <div class="message" id="sheetmessage"></div><button id="cancel">Cancel</button></div></div>
          <h2 style="margin-top:12px">On the phone</h2><div id="onphone"></div>
        </section>
        <div class="col"><section><h2>Shelf</h2><div id="shelf"></div>
          <form class="new" id="newtag"><label>Chip</label><select id="chip"></select>
            <label>UID</label><input id="uid" placeholder="random">
            <label>Name</label><input id="name" placeholder="chip-UID.json">
            <label>Text</label><input id="text" placeholder="optional Text record">
            <label>URI</label><input id="uri" placeholder="optional URI record">
            <span></span><div class="row"><button type="submit" class="primary" id="create">New tag</button><button type="button" id="createput">New tag on the phone</button></div>
          </form><div id="error"></div>
        </section>
        <section id="terminalpanel"><h2>Terminal</h2>
          <div class="meta" id="cardstatus">No app is connected.</div>
          <div class="row" style="margin-top:8px"><button class="primary" id="termfield">Hold the phone to the terminal</button><button id="termremove">Take it away</button></div>
          <form class="term" id="termselect"><label for="termaid">AID</label><input id="termaid" placeholder="F04C4F59414C" spellcheck="false"><button type="submit" id="termselectbtn">SELECT</button></form>
          <form class="term" id="termsend"><label for="termapdu">APDU</label><input id="termapdu" placeholder="80CA000000" spellcheck="false"><button type="submit" id="termsendbtn">Send</button></form>
          <div class="row" style="margin-top:8px"><select id="termexample">
            <option value="loyalty">Loyalty card: SELECT F04C4F59414C, GET DATA</option>
            <option value="badge">Access badge: SELECT F042414447, challenge</option>
            <option value="type4">Type 4 tag: read the NDEF file</option></select><button id="termrun">Run</button></div>
          <div id="termlog"></div>
        </section></div>
        <section><h2>Memory <span id="memname"></span></h2><div id="memory"><pre id="memtext">Select a tag.</pre></div>
          <h2 style="margin-top:12px">Transcript</h2><div id="transcript"></div>
          <h2 style="margin-top:12px">On the air <span id="airtotal"></span></h2><div id="timeline"></div>
        </section>
        </main>
        <script>
        "use strict";
        let view = "", shelfView = "", cardView = "", seen = 0, selected = null, memRevision = -1, busy = false, airCycles = 0;
        // The time axis: 0.1 px per microsecond (1 ms = 100 px); times arrive in carrier cycles of 13.56 MHz.
        const PX_PER_CYCLE = 0.1 / 13.56;
        function drawAir(frames) {
          const axis = $("timeline");
          for (const f of frames) {
            if (f.gap > 0) axis.append(el("span", { className: "gap", style: "width:" + (f.gap * PX_PER_CYCLE) + "px" }));
            if (f.air > 0) {
              const bar = el("span", { className: "bar " + (f.to === "card" ? "out" : "in"), title: (f.what || "frame") + ": " + (f.air / 13.56).toFixed(1) + " µs after " + (f.gap / 13.56).toFixed(1) + " µs" });
              bar.style.width = (f.air * PX_PER_CYCLE) + "px";
              bar.dataset.air = f.air;
              axis.append(bar);
            }
            airCycles += f.gap + f.air;
          }
          while (axis.childNodes.length > 4000) axis.removeChild(axis.firstChild);
          $("airtotal").textContent = "— " + (airCycles / 13560).toFixed(3) + " ms of frames and gaps";
          axis.scrollLeft = axis.scrollWidth;
        }
        const $ = (id) => document.getElementById(id);
        function el(tag, props, ...kids) { const e = document.createElement(tag); Object.assign(e, props || {}); for (const k of kids) e.append(k); return e; }
        // Every request gives up after 5 s, so a lost connection never freezes the page.
        function get(path) { return fetch(path, { signal: AbortSignal.timeout(5000) }).then(r => r.json()); }
        async function call(path, body) {
          const r = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body || {}), signal: AbortSignal.timeout(5000) });
          const j = await r.json();
          $("error").textContent = r.ok ? "" : j.error;
          return j;
        }
        function button(text, cls, fn) { const b = el("button", { textContent: text, className: cls || "" }); b.onclick = fn; return b; }
        function render(s) {
          $("address").textContent = "http://" + s.address + "/";
          $("hint").textContent = "OPENCORENFC_DEVICE=remote:" + s.address;
          $("appname").textContent = s.app ? "app: " + s.app.name + " (pid " + s.app.pid + ")" : "no app connected";
          $("phoneapp").style.display = s.app ? "none" : "block";
          // The app's sheet as it reports it; an app polling without one (a command, an app with no sheet) still
          // shows "Ready to Scan", without Cancel.
          const sh = s.sheet, scanning = !sh.presented && s.polling;
          $("sheet").className = "sheet" + (sh.presented || scanning ? " shown" : "");
          $("sheettitle").textContent = scanning ? "Ready to Scan" : sh.title;
          $("sheetmessage").textContent = scanning ? "The app is polling for tags: put one on the phone." : sh.message;
          $("glyph").className = "glyph" + (!scanning && sh.glyph === "error" ? " error" : "");
          $("cancel").style.display = scanning ? "none" : "";
          const chip = $("chip");
          if (chip.options.length === 0) for (const c of s.chips) chip.append(el("option", { value: c, textContent: c }));
        }
        function renderShelf(s) {
          const shelf = $("shelf"), on = $("onphone");
          shelf.replaceChildren(); on.replaceChildren();
          for (const t of s.tags) {
            const card = el("div", { className: "tag" + (t.onPhone ? " on" : "") + (selected === t.id ? " selected" : "") });
            card.dataset.name = t.name;
            const title = el("div", { className: "name", textContent: t.name });
            if (t.onPhone) title.append(el("span", { className: "badge on", textContent: "on the phone, position " + t.position }));
            if (t.unsaved) title.append(el("span", { className: "badge", textContent: "unsaved" }));
            card.append(title, el("div", { className: "meta", textContent: t.chip + "  UID " + t.uid }));
            const row = el("div", { className: "row" });
            if (t.onPhone) row.append(button("Take away", "danger remove", () => call("/api/remove", { tag: t.id })));
            else row.append(button("Put on the phone", "primary put", () => call("/api/put", { tag: t.id })));
            row.append(button("Memory", "memory", () => { selected = t.id; memRevision = -1; tick(); }));
            row.append(button("Save", "save", () => call("/api/save", { tag: t.id })));
            card.append(row);
            shelf.append(card);
            if (t.onPhone) {
              const pos = el("input", { className: "pos", type: "number", min: 0, max: 99, value: t.position });
              on.append(el("div", { className: "row tag on" }, el("span", { className: "name", textContent: t.name + " " }),
                button("Take away", "danger", () => call("/api/remove", { tag: t.id })), pos,
                button("Move", "move", () => call("/api/move", { tag: t.id, position: Number(pos.value) }))));
            }
          }
          if (!s.tags.some(t => t.onPhone)) on.append(el("div", { className: "meta", textContent: "Nothing. Put a tag from the shelf." }));
        }
        // Re-renders only what changed (not on every frame), and the shelf's buttons only when the shelf changed: a
        // button replaced between a press and its release loses the click, so the app's comings and goings and the
        // sheet never rebuild them.
        function renderCard(s) {
          const c = s.card;
          $("cardstatus").textContent = !s.app ? "No app is connected." :
            c.emulating ? "The app emulates a card (AIDs " + c.aids.join(", ") + "). Terminal field " + (c.field ? "on the phone." : "away.") :
            "The app emulates no card: its CardSession has not started emulation.";
          for (const id of ["termfield", "termremove", "termselectbtn", "termsendbtn", "termrun"]) $(id).disabled = !s.app;
          const box = $("termlog");
          box.replaceChildren();
          for (const l of c.log) {
            const mark = { command: "> ", answer: "< ", event: "• ", field: "~ " }[l.kind] || "";
            const line = el("div", { className: l.kind }, mark + l.text);
            if (l.comment) line.append(el("span", { className: "c", textContent: "  # " + l.comment }));
            box.append(line);
          }
          box.scrollTop = box.scrollHeight;
        }
        // The terminal's requests wait for the app's answer (at most 5 s on the field's side).
        async function terminal(body) {
          const r = await fetch("/api/terminal", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal: AbortSignal.timeout(8000) });
          const j = await r.json();
          $("error").textContent = r.ok ? (j.ok === false ? "the terminal: " + j.error : "") : j.error;
          tick();
          return j;
        }
        // Sends one APDU; stops an example at a missing answer or at a status word other than 90 00.
        async function apdu(hex) {
          const j = await terminal({ action: "send", apdu: hex });
          if (!j.ok || !j.response) throw new Error(j.error || "no answer");
          if (!j.response.endsWith("9000")) throw new Error("status " + j.response.slice(-4) + " to " + hex);
          return j.response.slice(0, -4);
        }
        // The examples of docs/CARD-EMULATION.md (the handlers of OpenCoreNFCTesting's examples and
        // opencorenfc-example card); the Type 4 one is the NFC Forum T4T read procedure (T4T 2.0 §5.4).
        const examples = {
          loyalty: async () => { await apdu("00A4040006F04C4F59414C00"); await apdu("80CA000000"); },
          badge: async () => { await apdu("00A4040007F042414447450100"); await apdu("00880000040A0B0C0D00"); },
          type4: async () => {
            await apdu("00A4040007D276000085010100");
            await apdu("00A4000C02E103");
            const cc = await apdu("00B000000F");
            await apdu("00A4000C02" + cc.slice(18, 22));
            const length = parseInt((await apdu("00B0000002")).slice(0, 4), 16);
            await apdu("00B00002" + length.toString(16).padStart(2, "0").toUpperCase());
          },
        };
        $("termfield").onclick = () => terminal({ action: "field" });
        $("termremove").onclick = () => terminal({ action: "remove" });
        $("termselect").onsubmit = (e) => { e.preventDefault(); terminal({ action: "select", aid: $("termaid").value }); };
        $("termsend").onsubmit = (e) => { e.preventDefault(); terminal({ action: "send", apdu: $("termapdu").value }); };
        $("termrun").onclick = async () => {
          try { await examples[$("termexample").value](); } catch (e) { $("error").textContent = "the example stopped: " + e.message; }
        };
        function show(s) {
          const v = JSON.stringify([s.app, s.sheet, s.polling]);
          if (v !== view) { view = v; render(s); }
          const cv = JSON.stringify([!!s.app, s.card]);
          if (cv !== cardView) { cardView = cv; renderCard(s); }
          const w = JSON.stringify([s.tags.map(t => [t.id, t.name, t.chip, t.uid, t.onPhone, t.position, t.unsaved]), selected]);
          if (w !== shelfView) { shelfView = w; renderShelf(s); }
        }
        async function tick() {
          if (busy) return;
          busy = true;
          try {
            const s = await get("/api/state");
            show(s);
            if (s.transcript > seen) {
              const t = await get("/api/transcript?since=" + seen);
              const box = $("transcript");
              for (const l of t.lines) {
                const line = el("div", { className: l.kind }, l.text);
                if (l.comment) line.append(el("span", { className: "c", textContent: "  # " + l.comment }));
                box.append(line);
                if (l.air) drawAir(l.air);
              }
              while (box.childNodes.length > 2000) box.removeChild(box.firstChild);
              seen = t.next; box.scrollTop = box.scrollHeight;
            }
            if (selected === null) { const first = s.tags.find(t => t.onPhone); if (first) selected = first.id; }
            const sel = s.tags.find(t => t.id === selected);
            if (sel && sel.revision !== memRevision) {
              memRevision = sel.revision;
              const m = await get("/api/tag?tag=" + sel.id);
              $("memname").textContent = "— " + sel.name;
              let text = m.report.join("\\n") + "\\nNDEF access: " + m.ndefAccess;
              if (m.ndef) text += "\\nNDEF message: " + (m.ndef.records ? "\\n  " + m.ndef.records.join("\\n  ") : m.ndef.error);
              else text += "\\nNDEF message: none";
              showMemory(sel.id, text);
              show(s);
            }
          } catch (e) { $("error").textContent = "the field does not answer: " + e; }
          busy = false;
        }
        // The memory view, with what changed since the same tag's previous view marked: in a memory-map line
        // (`0A  00 11 …`) the bytes that differ from the same line before, any other new line whole. Nothing is marked
        // on a tag's first view, and the marks stay until the memory changes again (a read leaves them).
        let memShown = { tag: null, lines: [] };
        const ROW = /^(\\s*([0-9A-F]{2,6})  )((?:[0-9A-F]{2}|--)(?: (?:[0-9A-F]{2}|--))*)(.*)$/;
        function rowKeys(lines) {
          const count = new Map();
          return lines.map(l => { const m = ROW.exec(l); if (!m) return null; const n = (count.get(m[2]) || 0) + 1; count.set(m[2], n); return m[2] + "#" + n; });
        }
        function showMemory(tag, text) {
          const lines = text.split("\\n");
          const before = memShown.tag === tag ? memShown.lines : null;
          if (before && before.join("\\n") === text) return;
          const old = new Map(), had = new Set(before || []), keys = rowKeys(lines);
          if (before) rowKeys(before).forEach((k, i) => { if (k) old.set(k, before[i]); });
          const pre = $("memtext");
          pre.replaceChildren();
          lines.forEach((line, i) => {
            if (i > 0) pre.append("\\n");
            if (!before || had.has(line)) { pre.append(line); return; }
            const m = ROW.exec(line), prev = keys[i] && old.get(keys[i]), p = prev && ROW.exec(prev);
            if (!m || !p) { pre.append(el("mark", { textContent: line })); return; }
            pre.append(m[1]);
            const a = m[3].split(" "), b = p[3].split(" ");
            a.forEach((t, k) => { if (k > 0) pre.append(" "); pre.append(t === b[k] ? t : el("mark", { textContent: t })); });
            pre.append(m[4]);
          });
          memShown = { tag: tag, lines: lines };
        }
        $("cancel").onclick = () => call("/api/cancel");
        function newTag(put) {
          return call("/api/new", { chip: $("chip").value, uid: $("uid").value, name: $("name").value, text: $("text").value, uri: $("uri").value, put: put });
        }
        $("newtag").onsubmit = (e) => { e.preventDefault(); newTag(false); };
        $("createput").onclick = () => newTag(true);
        setInterval(tick, 300);
        tick();
        </script></body></html>
        """
}
