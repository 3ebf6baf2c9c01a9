#!/usr/bin/env python3
"""A real browser cannot abuse the JSON endpoint: headless Chromium (Debian's
chromium + chromium-driver, driven by python3-selenium) opens a page on
another origin that tries what a hostile site would — no-cors fetches with a
JSON body typed text/plain or as a form, a JSON fetch (CORS preflight), HTML form posts
(text/plain crafted to be JSON, and urlencoded) and sendBeacon — all aimed at
planting a variable in an existing session. The daemon must see the requests
(the browser really sent them), refuse every one, and the session must stay
untouched."""
import json
import os
import shutil
import subprocess
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from daemon import Daemon, Tap, skip_all

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
if not CHROMIUM or not DRIVER:
    skip_all("chromium and chromium-driver are not installed")
try:
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
except ImportError:
    skip_all("python3-selenium not importable")
if not shutil.which("curl"):
    skip_all("curl not installed")

t = Tap()
d = Daemon("--session-idle-seconds", "60")
api = "http://127.0.0.1:%d" % d.http_port


def curl(path, body):
    out = subprocess.run(["curl", "-s", "-o", "-", "-w", "\n%{http_code}", "-H", "Content-Type: application/json",
                          "--data-binary", body, api + path], capture_output=True, text=True, timeout=30).stdout
    text, _, code = out.rpartition("\n")
    return int(code), text


code, _ = curl("/v1/execute", json.dumps({"sessionId": "victim", "sql": "DECLARE VARIABLE kept INT DEFAULT 1"}))
assert code == 200, code

ATTACK = """<!doctype html><html><body>
<iframe name="sink1"></iframe><iframe name="sink2"></iframe>
<form id="f1" method="POST" enctype="text/plain" target="sink1" action="API/v1/execute">
<input type="hidden" name='{"sessionId":"victim","sql":"DECLARE VARIABLE planted_form INT DEFAULT 1","pad":"' value='"}'>
</form>
<form id="f2" method="POST" target="sink2" action="API/v1/execute">
<input type="hidden" name="sessionId" value="victim"><input type="hidden" name="sql" value="DECLARE VARIABLE planted_url INT DEFAULT 1">
</form>
<script>
window.results = {};
const plant = name => JSON.stringify({sessionId: "victim", sql: "DECLARE VARIABLE " + name + " INT DEFAULT 1"});
async function attack() {
  try {
    const r = await fetch("API/v1/execute", {method: "POST", mode: "no-cors",
                          headers: {"Content-Type": "text/plain"}, body: plant("planted_nocors")});
    results.nocors = "sent:" + r.type;
  } catch (e) { results.nocors = "error:" + e; }
  try {  /* a form type is a "simple" request too: no preflight, JSON in the body */
    const r = await fetch("API/v1/execute", {method: "POST", mode: "no-cors",
                          headers: {"Content-Type": "application/x-www-form-urlencoded"}, body: plant("planted_formtype")});
    results.formtype = "sent:" + r.type;
  } catch (e) { results.formtype = "error:" + e; }
  try {
    const r = await fetch("API/v1/execute", {method: "POST", headers: {"Content-Type": "application/json"},
                          body: plant("planted_cors")});
    results.cors = "read:" + r.status + ":" + (await r.text());
  } catch (e) { results.cors = "error:" + e; }
  results.beacon = navigator.sendBeacon("API/v1/execute", new Blob([plant("planted_beacon")], {type: "text/plain"}));
  let loaded = 0;
  for (const n of ["sink1", "sink2"]) document.getElementsByName(n)[0].onload = () => { loaded++; if (loaded == 2) results.forms = "submitted"; };
  document.getElementById("f1").submit();
  document.getElementById("f2").submit();
}
attack().then(() => { results.fetches = "done"; });
</script></body></html>""".replace("API", api)


class Page(BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        body = ATTACK.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *a):
        pass


page = ThreadingHTTPServer(("127.0.0.1", 0), Page)
threading.Thread(target=page.serve_forever, daemon=True).start()
page_url = "http://localhost:%d/attack.html" % page.server_address[1]  # another host and port: another origin

profile = tempfile.mkdtemp(prefix="cz-chromium-")
opts = webdriver.ChromeOptions()
opts.binary_location = CHROMIUM
for a in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
          "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage", "--user-data-dir=" + profile):
    opts.add_argument(a)
before = len(d.lines)
driver = None
try:
    driver = webdriver.Chrome(service=Service(DRIVER), options=opts)
    driver.set_page_load_timeout(30)
    driver.get(page_url)
    deadline = time.time() + 30
    results = {}
    while time.time() < deadline:
        results = driver.execute_script("return window.results || {}")
        if results.get("fetches") == "done" and results.get("forms") == "submitted":
            break
        time.sleep(0.2)
finally:
    if driver:
        driver.quit()
    page.shutdown()
    shutil.rmtree(profile, ignore_errors=True)
print("# page results: %s" % json.dumps(results))

t.ok(results.get("fetches") == "done" and results.get("forms") == "submitted",
     "the page ran its attempts (fetches, beacon, two form posts)", results)
t.ok(str(results.get("cors", "")).startswith("error:"), "the JSON fetch cannot read a response (preflight refused)",
     results.get("cors"))

time.sleep(1)  # the beacon is sent in the background
seen = [json.loads(x) for x in d.lines[before:] if '"transport":"json"' in x]
t.ok(len(seen) >= 5, "the daemon saw the browser's requests (%d)" % len(seen), seen)
t.ok(all(x["status"] == "PERMISSION_DENIED" for x in seen), "every one refused: PERMISSION_DENIED (foreign Origin)",
     [x["status"] for x in seen])

for var in ("planted_form", "planted_url", "planted_nocors", "planted_formtype", "planted_cors", "planted_beacon"):
    code, text = curl("/v1/analyze", json.dumps({"sessionId": "victim", "sql": "SELECT " + var}))
    r = json.loads(text)["result"]
    t.ok(code == 200 and not r.get("ok") and "UNRESOLVED" in r["error"]["errorClass"],
         "no %s in the victim's session" % var, text[:300])
code, text = curl("/v1/analyze", json.dumps({"sessionId": "victim", "sql": "SELECT kept"}))
t.ok(code == 200 and json.loads(text)["result"].get("ok"), "the victim's own variable is still there", text[:300])

t.ok(d.stop() == 0, "SIGTERM: exit 0", d.log()[-2000:])
t.ok(not any(x in d.log() for x in ("AddressSanitizer", "LeakSanitizer", "runtime error")), "no sanitizer reports",
     d.log()[-3000:])
t.done()
