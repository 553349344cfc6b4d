#!/usr/bin/env python3
"""Drives the viewer of `navlog serve` in headless Chromium (Selenium, chromedriver).

  viewer_check.py check --url URL --navlog BIN --store DIR --artifacts DIR [--seed N] [--key KEY]
      Opens sessions at random cursors, moves the cursor with the keyboard,
      follows a funnel drop-off, at 1440 and 375 px wide, and compares what is
      drawn with `navlog state DIR --session ID --at N --json`. With --key the
      server runs with keys: the login form first, then the read key's cookie.
      Saves a PNG of each view in --artifacts and prints `screenshot PATH` for
      each. Exit 0 when everything matched, 1 with one line per mismatch,
      2 when Chromium, chromedriver or selenium is missing.

  viewer_check.py timings --url URL --session ID [--runs N] [--moves M]
      Opens the session N times and moves the cursor M times a run; prints one
      JSON object: the open times (the page's `navlog-open-done` mark after
      navigation start), the cursor moves (`navlog-cursor` measures) and the
      server's answer times for the same states, in milliseconds.

Only 127.0.0.1 is contacted: Selenium Manager is never used (the browser and
the driver are named), no proxy, Chromium's background traffic is off.
"""
import argparse
import fnmatch
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request

sys.dont_write_bytecode = True  # no __pycache__ beside the scripts
import layout_checks  # noqa: E402 - after the line above
from scenes_drawn import DRAWN_JS, expected_scenes, visible_problem  # noqa: E402

os.environ["SE_AVOID_STATS"] = "true"
WAIT = 5.0  # seconds, every wait for the page


def fail_setup(message):
    print(f"viewer_check: {message}; tools/setup --test installs it", file=sys.stderr)
    sys.exit(2)


def find_program(names, fallbacks):
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    for path in fallbacks:
        if os.access(path, os.X_OK):
            return path
    return None


def start_browser(width, height):
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        fail_setup("Python's selenium is not installed (pip: selenium)")
    chromium = find_program(["chromium", "chromium-browser"],
                            ["/usr/bin/chromium", "/Applications/Chromium.app/Contents/MacOS/Chromium"])
    if not chromium:
        fail_setup("Chromium is not installed (Debian: chromium; Homebrew: the chromium cask)")
    driver_path = find_program(["chromedriver"], ["/usr/bin/chromedriver"])
    if not driver_path:
        fail_setup("chromedriver is not installed (Debian: chromium-driver; Homebrew: the chromedriver cask)")
    options = webdriver.ChromeOptions()
    options.binary_location = chromium
    for arg in ["--headless=new", "--disable-background-networking", "--disable-component-update", "--no-first-run",
                "--disable-dev-shm-usage", "--no-proxy-server", "--disable-sync", "--disable-extensions",
                "--no-default-browser-check", "--disable-gpu", "--hide-scrollbars", f"--window-size={width},{height}"]:
        options.add_argument(arg)
    if hasattr(os, "geteuid") and os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    service = Service(executable_path=driver_path)
    driver = webdriver.Chrome(service=service, options=options)
    driver.set_page_load_timeout(WAIT * 2)
    driver.set_script_timeout(WAIT)
    return driver


class Mismatch(Exception):
    pass


def raise_if(problem, where):
    """A layout check's problem (layout_checks.py), as a mismatch at `where`."""
    if problem:
        raise Mismatch(f"{where}: {problem}")


def wait_until(driver, what, condition, seconds=WAIT):
    deadline = time.monotonic() + seconds
    while True:
        try:
            if condition():
                return
        except Exception:  # noqa: BLE001 - the page is between two states; ask again
            pass
        if time.monotonic() > deadline:
            raise Mismatch(f"{what}: not within {seconds:.0f} s (url {driver.current_url}, "
                           f"body {driver.execute_script('return JSON.stringify(document.body.dataset)')})")
        time.sleep(0.02)


def ready(driver, at=None):
    data = driver.execute_script("return [document.body.dataset.ready, document.body.dataset.at]")
    return data[0] == "true" and (at is None or data[1] == str(at))


def testids(root, name):
    from selenium.webdriver.common.by import By
    return root.find_elements(By.CSS_SELECTOR, f"[data-testid={name}]")


class Navlog:
    def __init__(self, binary, store):
        self.binary, self.store = binary, store

    def run(self, *args):
        done = subprocess.run([self.binary, *args], capture_output=True, text=True, timeout=60)
        if done.returncode != 0:
            raise Mismatch(f"navlog {' '.join(args)} exited {done.returncode}: {done.stderr.strip()}")
        return done.stdout

    def sessions(self):
        return [line.split("\t")[0] for line in self.run("sessions", self.store).splitlines()[1:] if line]

    def events(self, session):
        return [json.loads(line) for line in self.run("cat", self.store, "--session", session).splitlines() if line]

    def seqs(self, session):
        return [event["seq"] for event in self.events(session)]

    def state(self, session, at):
        return json.loads(self.run("state", self.store, "--session", session, "--at", str(at), "--json"))


class Check:
    def __init__(self, args):
        self.url = args.url.rstrip("/")
        self.navlog = Navlog(args.navlog, args.store)
        self.artifacts = args.artifacts
        self.rng = random.Random(args.seed)
        self.problems = []
        self.driver = None

    def shot(self, name):
        path = os.path.join(self.artifacts, name + ".png")
        self.driver.save_screenshot(path)
        print(f"screenshot {path}", flush=True)

    def compare(self, where, session, at):
        state = self.navlog.state(session, at)
        drawn = self.driver.execute_script(DRAWN_JS)
        want = expected_scenes(state)
        if drawn["at"] != str(at):
            raise Mismatch(f"{where}: body data-at is {drawn['at']}, not {at}")
        if set(drawn["scenes"]) != set(want):
            raise Mismatch(f"{where}: scenes drawn {sorted(drawn['scenes'])}, navlog state has {sorted(want)}")
        for name, scene in want.items():
            got = drawn["scenes"][name]
            for key, value in scene.items():
                if got[key] != value:
                    raise Mismatch(f"{where}: scene {name} {key} drawn {got[key]!r}, navlog state says {value!r}")
            problem = visible_problem(scene, got)
            if problem:
                raise Mismatch(f"{where}: scene {name}: {problem}")
        screens = [s["screen"] for s in want.values()]
        status = drawn["status"] or ""
        if screens and not any(screen in status for screen in screens):
            raise Mismatch(f"{where}: the status region says {status!r}, naming none of {screens}")
        return state

    def address_at(self):
        query = urllib.parse.parse_qs(urllib.parse.urlparse(self.driver.current_url).query)
        return query.get("at", [None])[0]

    def open_session(self, where, session, at):
        self.driver.get(f"{self.url}/sessions/{urllib.parse.quote(session)}?at={at}")
        wait_until(self.driver, f"{where}: ready at {at}", lambda: ready(self.driver, at))
        self.compare(where, session, at)

    def press(self, where, session, key, expected):
        from selenium.webdriver.common.keys import Keys
        timeline = testids(self.driver, "timeline")
        if len(timeline) != 1:
            raise Mismatch(f"{where}: {len(timeline)} timelines")
        if timeline[0].get_attribute("tabindex") != "0":
            raise Mismatch(f"{where}: the timeline's tabindex is {timeline[0].get_attribute('tabindex')}, not 0")
        timeline[0].send_keys({"ArrowRight": Keys.ARROW_RIGHT, "ArrowLeft": Keys.ARROW_LEFT,
                               "Home": Keys.HOME, "End": Keys.END}[key])
        where = f"{where} after {key}"
        wait_until(self.driver, f"{where}: ready at {expected}", lambda: ready(self.driver, expected))
        self.compare(where, session, expected)
        wait_until(self.driver, f"{where}: the address bar's at= to follow ({expected})",
                   lambda: self.address_at() == str(expected))
        current = [r.get_attribute("data-seq") for r in testids(self.driver, "event-row")
                   if r.get_attribute("aria-current") == "true"]
        if expected > 0 and current != [str(expected)]:
            raise Mismatch(f"{where}: event rows marked current {current}, not [{expected}]")

    def sessions_list(self, width):
        self.driver.get(self.url + "/sessions")
        wait_until(self.driver, "session list ready", lambda: ready(self.driver))
        rows = testids(self.driver, "session-row")
        listed = self.navlog.sessions()
        shown = [r.get_attribute("data-session") for r in rows]
        if not shown or any(s not in listed for s in shown):
            raise Mismatch(f"session list: rows {shown[:5]}…, the store holds {listed[:5]}…")
        count = testids(self.driver, "session-count")
        if len(count) != 1 or str(len(listed)) not in count[0].text:
            raise Mismatch(f"session list: the count says {[c.text for c in count]}, the store holds {len(listed)}")
        self.no_sideways_scroll(f"session list at {width} px")
        self.rows_readable(width)
        self.sign_out_shown(False, f"session list at {width} px")
        self.shot(f"sessions-{width}")

    def rows_readable(self, width):
        raise_if(layout_checks.session_rows(self.driver), f"session list at {width} px")

    def sign_out_shown(self, wanted, where):
        raise_if(layout_checks.sign_out(self.driver, wanted), where)

    def focus_rings(self, where):
        raise_if(layout_checks.focus_rings(self.driver), where)

    def funnel_layout(self, width, wanted):
        raise_if(layout_checks.funnel_rows(self.driver, wanted), f"funnels at {width} px")

    def no_sideways_scroll(self, where):
        widths = self.driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
        if widths[0] > widths[1] + 1:
            raise Mismatch(f"{where}: the page is {widths[0]} px wide in a {widths[1]} px window (scrolls sideways)")

    def one_session(self, session, width, moves):
        events = self.navlog.events(session)
        seqs = [event["seq"] for event in events]
        at = self.rng.choice(seqs[1:-1] if len(seqs) > 2 else seqs)
        where = f"{session}?at={at} at {width} px"
        self.open_session(where, session, at)
        self.no_sideways_scroll(where)
        markers = self.driver.execute_script(
            "return [...document.querySelectorAll('[data-testid=marker]')].map(m => [Number(m.dataset.seq), m.dataset.kind])")
        wanted = [[event["seq"], event["type"]] for event in events]
        if markers != wanted:
            first = next((i for i, pair in enumerate(markers) if i >= len(wanted) or pair != wanted[i]), len(markers))
            raise Mismatch(f"{where}: {len(markers)} timeline markers for {len(wanted)} events; "
                           f"the first difference at #{first + 1}: {markers[first:first + 1]} against {wanted[first:first + 1]}")
        if not moves:
            return
        self.focus_rings(where)
        index = seqs.index(at)
        after = seqs[min(index + 1, len(seqs) - 1)]
        self.press(where, session, "ArrowRight", after)
        self.press(where, session, "ArrowLeft", at)
        self.press(where, session, "End", seqs[-1])
        self.press(where, session, "Home", seqs[0])
        self.press(where, session, "ArrowLeft", 0)
        self.press(where, session, "ArrowRight", seqs[0])

    def funnel(self, width):
        from selenium.webdriver.common.by import By
        steps = ["tab:home", "Recipe/*", "Checkout"]
        self.driver.get(self.url + "/funnels")
        wait_until(self.driver, "funnel page ready", lambda: ready(self.driver))
        form = testids(self.driver, "funnel-form")
        if len(form) != 1:
            raise Mismatch(f"funnels: {len(form)} funnel forms")
        field = testids(self.driver, "funnel-steps")[0]
        field.clear()
        field.send_keys(",".join(steps))
        self.driver.execute_script("document.body.dataset.ready = 'false'")
        testids(self.driver, "funnel-run")[0].click()
        wait_until(self.driver, "funnel result", lambda: ready(self.driver) and len(testids(self.driver, "funnel-step")) == 3)
        counts = [int(s.get_attribute("data-count")) for s in testids(self.driver, "funnel-step")]
        wanted = json.loads(self.navlog.run("funnel", self.navlog.store, *sum([["--step", s] for s in steps], []), "--json"))
        expected = [s["sessions"] for s in wanted["segments"][0]["steps"]]
        if counts != expected:
            raise Mismatch(f"funnels: step counts drawn {counts}, navlog funnel says {expected}")
        self.funnel_layout(width, wanted["segments"][0]["steps"])
        self.focus_rings(f"funnels at {width} px")
        self.no_sideways_scroll(f"funnels at {width} px")
        self.shot(f"funnel-{width}")
        dropoffs = testids(self.driver, "dropoff")
        if len(dropoffs) != len(steps) - 1:
            raise Mismatch(f"funnels: {len(dropoffs)} drop-off controls for {len(steps)} steps")
        # The last step that loses sessions: they left after reaching the step before it.
        k = max((i for i in range(1, len(steps)) if counts[i] < counts[i - 1]), default=None)
        if k is None:
            raise Mismatch(f"funnels: no step loses sessions ({counts}); the sample store should have drop-offs")
        dropoffs[k - 1].click()
        wait_until(self.driver, "drop-off sessions listed", lambda: len(testids(self.driver, "dropoff-session")) > 0)
        links = testids(self.driver, "dropoff-session")
        if len(links) != counts[k - 1] - counts[k]:
            raise Mismatch(f"funnels: {len(links)} drop-off sessions listed at step {k + 1}, "
                           f"{counts[k - 1] - counts[k]} left there")
        self.shot(f"dropoffs-{width}")
        href = links[0].get_attribute("href")
        path = urllib.parse.urlparse(href)
        session = urllib.parse.unquote(path.path.rsplit("/", 1)[-1])
        at = urllib.parse.parse_qs(path.query).get("at", [None])[0]
        if not path.path.startswith("/sessions/") or at is None or not at.isdigit():
            raise Mismatch(f"funnels: a drop-off link is {href}, not /sessions/ID?at=N")
        links[0].click()
        where = f"drop-off {session}?at={at}"
        wait_until(self.driver, f"{where}: ready", lambda: "/sessions/" in self.driver.current_url and ready(self.driver, at))
        state = self.compare(where, session, int(at))
        # It opens where the session left: a screen view of step k (the last it reached).
        before = self.navlog.state(session, int(at) - 1)
        left = [name for name, scene in state["scenes"].items()
                if fnmatch.fnmatchcase(scene["screen"], steps[k - 1])
                and (before["scenes"].get(name) or {}).get("screen") != scene["screen"]]
        if not left:
            raise Mismatch(f"{where}: seq {at} is no screen view of {steps[k - 1]} (the step that session left at)")
        self.shot(f"dropoff-session-{width}")

    def login(self, key, session):
        from selenium.webdriver.common.by import By
        seqs = self.navlog.seqs(session)
        at = seqs[len(seqs) // 2]
        self.driver.get(f"{self.url}/sessions/{urllib.parse.quote(session)}?at={at}")
        wait_until(self.driver, "the login form", lambda: self.driver.find_elements(By.CSS_SELECTOR, "[data-testid=login-form] [data-testid=login-key]"))
        self.shot("login-1440")
        field = self.driver.find_elements(By.CSS_SELECTOR, "[data-testid=login-form] [data-testid=login-key]")[0]
        field.send_keys(key)
        field.submit()
        wait_until(self.driver, f"back at the session after logging in (at {at})", lambda: ready(self.driver, at))
        self.compare(f"with a key, {session}?at={at}", session, at)
        if "navlog_key" in self.driver.execute_script("return document.cookie"):
            raise Mismatch("login: the navlog_key cookie is readable from script (not HttpOnly)")
        cookie = self.driver.get_cookie("navlog_key")
        if not cookie or not cookie.get("httpOnly") or cookie.get("sameSite") != "Strict" or cookie.get("path") != "/":
            raise Mismatch(f"login: the cookie is {cookie}, not navlog_key HttpOnly SameSite=Strict Path=/")
        self.press(f"with a key, {session}?at={at}", session, "ArrowRight", seqs[seqs.index(at) + 1])
        self.sign_out_shown(True, f"with a key, {session}?at={at}")
        self.shot("session-keys-1440")

    def run(self, key):
        sessions = self.navlog.sessions()
        if not sessions:
            raise Mismatch("the store holds no session")
        self.driver = start_browser(1440, 900)
        try:
            if key:
                self.step(lambda: self.login(key, sessions[0]))
                return
            for width, height in ((1440, 900), (375, 812)):
                self.driver.set_window_size(width, height)
                self.step(lambda: self.sessions_list(width))
                for i, session in enumerate(sessions[:3]):
                    self.step(lambda: self.one_session(session, width, moves=(i == 0)))
                self.shot(f"session-{width}")
                self.step(lambda: self.funnel(width))
        finally:
            self.driver.quit()

    def step(self, action):
        try:
            action()
        except Mismatch as problem:
            self.problems.append(str(problem))
            print(f"mismatch: {problem}", file=sys.stderr, flush=True)
        except Exception as error:  # noqa: BLE001 - Selenium's own errors: one line each, then on
            message = f"{type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"
            self.problems.append(message)
            print(f"error: {message}", file=sys.stderr, flush=True)


def median_ms(values):
    return round(statistics.median(values), 1) if values else None


def timings(args):
    base = args.url.rstrip("/")
    page = f"{base}/sessions/{urllib.parse.quote(args.session)}"
    direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    opens, moves, answers, last = [], [], [], None
    driver = start_browser(1440, 900)
    try:
        from selenium.webdriver.common.keys import Keys
        for _ in range(args.runs):
            driver.get("about:blank")
            driver.get(page)
            wait_until(driver, "the session drawn", lambda: ready(driver), seconds=60)
            opened = driver.execute_script(
                "const m = performance.getEntriesByName('navlog-open-done'); return m.length ? m[0].startTime : null")
            if opened is None:
                raise Mismatch("the page recorded no navlog-open-done mark")
            opens.append(opened)
            last = int(driver.execute_script("return document.body.dataset.at"))
            timeline = testids(driver, "timeline")[0]
            for i in range(args.moves):
                before = driver.execute_script("return document.body.dataset.at")
                timeline.send_keys(Keys.ARROW_LEFT)
                wait_until(driver, "a cursor move drawn",
                           lambda: ready(driver) and driver.execute_script("return document.body.dataset.at") != before)
            measures = driver.execute_script("return performance.getEntriesByName('navlog-cursor').map(e => e.duration)")
            if len(measures) < args.moves:
                raise Mismatch(f"{len(measures)} navlog-cursor measures for {args.moves} moves")
            moves.extend(measures[-args.moves:])
        for at in range(max(0, last - args.moves), last + 1):
            started = time.perf_counter()
            with direct.open(f"{base}/v1/sessions/{urllib.parse.quote(args.session)}/state?at={at}", timeout=30) as answer:
                answer.read()
            answers.append((time.perf_counter() - started) * 1000)
        started = time.perf_counter()
        with direct.open(page, timeout=30) as answer:
            answer.read()
        html = (time.perf_counter() - started) * 1000
    finally:
        driver.quit()
    print(json.dumps({"openMs": [round(x, 1) for x in opens], "openMedianMs": median_ms(opens),
                      "cursorMedianMs": median_ms(moves), "cursorMaxMs": round(max(moves), 1) if moves else None,
                      "cursorMoves": len(moves), "cursorMs": [round(x, 1) for x in moves], "stateAnswerMedianMs": median_ms(answers),
                      "pageAnswerMs": round(html, 1), "lastSeq": last}))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="mode", required=True)
    check = sub.add_parser("check")
    check.add_argument("--url", required=True)
    check.add_argument("--navlog", required=True)
    check.add_argument("--store", required=True)
    check.add_argument("--artifacts", required=True)
    check.add_argument("--seed", type=int, default=1)
    check.add_argument("--key")
    timed = sub.add_parser("timings")
    timed.add_argument("--url", required=True)
    timed.add_argument("--session", required=True)
    timed.add_argument("--runs", type=int, default=5)
    timed.add_argument("--moves", type=int, default=20)
    args = parser.parse_args()
    if args.mode == "timings":
        try:
            timings(args)
        except Mismatch as problem:
            print(f"viewer_check: {problem}", file=sys.stderr)
            sys.exit(1)
        return
    os.makedirs(args.artifacts, exist_ok=True)
    check = Check(args)
    try:
        check.run(args.key)
    except Mismatch as problem:
        check.problems.append(str(problem))
        print(f"mismatch: {problem}", file=sys.stderr)
    if check.problems:
        print(f"viewer_check: {len(check.problems)} problem(s); the first: {check.problems[0]}", file=sys.stderr)
        sys.exit(1)
    print("viewer_check: everything drawn matched navlog state", flush=True)


if __name__ == "__main__":
    main()
