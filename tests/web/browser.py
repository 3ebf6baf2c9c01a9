"""Headless Chromium for the page tests: Debian's chromium driven through
chromium-driver by python3-selenium (nothing downloaded), started with the
flags a closed network needs and a fresh profile, with the browser console
and the network log kept so tests can fail on console errors and measure
what the page transferred."""
import json
import os
import shutil
import tempfile
import time

CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--disable-dev-shm-usage", "--hide-scrollbars", "--force-device-scale-factor=1"]


def missing():
    """Why the browser cannot run here, or None."""
    for p in (CHROMIUM, CHROMEDRIVER):
        if not os.path.exists(p):
            return p + " not installed (apt-get install chromium chromium-driver)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "python3-selenium not installed"
    return None


class Browser:
    def __init__(self, width=1440, height=1000):
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
        self.profile = tempfile.mkdtemp(prefix="cz-chromium-")
        o = webdriver.ChromeOptions()
        o.binary_location = CHROMIUM
        for f in FLAGS + ["--user-data-dir=" + self.profile, "--window-size=%d,%d" % (width, height)]:
            o.add_argument(f)
        o.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
        self.d = webdriver.Chrome(service=Service(CHROMEDRIVER), options=o)
        self.d.set_script_timeout(60)
        self.console = []

    # ---------------------------------------------------------------- page helpers

    def js(self, script, *args):
        return self.d.execute_script(script, *args)

    def set_value(self, elem_id, value):
        self.js("const e = document.getElementById(arguments[0]); e.value = arguments[1];"
                "e.dispatchEvent(new Event('input', {bubbles: true}));", elem_id, value)

    def done_count(self):
        v = self.js("return document.body.dataset.done || '0'")
        return int(v)

    def wait(self, cond, timeout=60, what="condition"):
        end = time.time() + timeout
        while time.time() < end:
            r = cond()
            if r:
                return r
            time.sleep(0.05)
        raise AssertionError("timed out waiting for " + what)

    def run_and_wait(self, click_id="run", timeout=120):
        """Clicks Analyze (or another starter) and waits for the run to end."""
        before = self.done_count()
        self.d.find_element("id", click_id).click()
        self.wait(lambda: self.done_count() > before, timeout, "the analysis to finish")

    def wait_next_done(self, before, timeout=120):
        self.wait(lambda: self.done_count() > before, timeout, "the analysis to finish")

    # ---------------------------------------------------------------- logs

    def console_errors(self):
        """Console entries at SEVERE since the last call (all kept in self.console)."""
        entries = self.d.get_log("browser")
        self.console += entries
        return [e for e in entries if e.get("level") == "SEVERE"]

    def network(self):
        """(url, status, encodedDataLength) of requests finished since the last call."""
        urls, done = {}, []
        for entry in self.d.get_log("performance"):
            msg = json.loads(entry["message"])["message"]
            p = msg.get("params", {})
            if msg["method"] == "Network.responseReceived":
                urls[p["requestId"]] = (p["response"]["url"], p["response"]["status"])
            elif msg["method"] == "Network.loadingFinished":
                url, status = urls.get(p["requestId"], ("?", 0))
                done.append((url, status, int(p.get("encodedDataLength", 0))))
        return done

    def cdp(self, cmd, args=None):
        return self.d.execute_cdp_cmd(cmd, args or {})

    def screenshot(self, path):
        os.makedirs(os.path.dirname(path), exist_ok=True)
        self.d.save_screenshot(path)
        return path

    def quit(self):
        try:
            self.d.quit()
        finally:
            shutil.rmtree(self.profile, ignore_errors=True)
