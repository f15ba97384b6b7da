"""A classroom on one machine: a real JupyterHub with configurable-http-proxy, five learners at once.

``course_cli.classroom`` starts the hub on 127.0.0.1 with a system user and a home of their own per learner (each
holding the learners' repository), the course kernel, the idle culler of deploy/jupyterhub/values.yaml and the
kernels' idle timeout of deploy/docker/jupyter_server_config.json, both shortened here. Then, at the same time:

- learner1 logs in through the hub's login form in Chromium and lands in JupyterLab, with the course kernel in
  its launcher; learners 2–5 log in through the hub's REST API (a token for their name and password);
- each learner's server runs notebook 02 at the quick scale in a kernel of its own, cell by cell over the kernel's
  websocket as JupyterLab does, with a guess of their own typed into each prediction and answers into the
  self-checks; the notebook's last cell grades their exercise 02;
- every 0.2 s, the resident memory of each learner's processes (server, kernel, grader) and of the hub's (hub,
  proxy, services) is read from /proc.

Then: the peaks against values.yaml; a learner reading another's home, or reaching another's server and kernel,
is refused; each learner's server writes in that learner's home only; an idle kernel is culled at the configured
time and the server starts a fresh one; the idle culler stops idle servers; the class view shows the five
learners' guesses and self-check answers, to the trainer and not to a learner.

Needs root (users, setuid), configurable-http-proxy (npm, installed once) and Debian's chromium and
chromium-driver for the browser part. The executed notebooks and the figures go to target/hub/.
"""
from __future__ import annotations

import asyncio
import json
import os
import pwd
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

import nbformat
import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))

from course_cli.classroom import Classroom, call, quantity  # noqa: E402
from run_notebook import problems_in  # noqa: E402

pytestmark = [pytest.mark.hub,
              pytest.mark.skipif(os.geteuid() != 0 or not shutil.which("useradd"),
                                 reason="the classroom needs root and useradd (system users per learner)")]

LEARNERS = [f"learner{i}" for i in range(1, 6)]
BROWSER_LEARNER = LEARNERS[0]
NOTEBOOK = "vthreads-course/notebooks/02-cafe-simulation.ipynb"
OUT = ROOT / "target" / "hub"
KERNEL_IDLE = 8       # s: the kernels' idle timeout here (3600 in the image)
KERNEL_CULL_EVERY = 2
SERVER_IDLE = 25      # s: the idle culler's timeout here (values.yaml: 3600); a running cell's progress line is activity
SERVER_CULL_EVERY = 5
ACTIVITY_EVERY = 5
GIB = 1024 ** 3
SELFCHECK = json.loads((ROOT / "kit/src/main/resources/course/kit/selfcheck/02.json").read_text())


VALUES = yaml.safe_load((ROOT / "deploy/jupyterhub/values.yaml").read_text())


# ------------------------------------------------------------------------------------------------- what learners do

def guesses_of(i: int) -> dict[str, str]:
    """Learner i's answers, typed where the notebook leaves its placeholders: a different guess per learner, so
    that the class view has a distribution to show."""
    return {
        "Duration.ofMillis(/* your guess */ 0)": f"Duration.ofMillis({250 * 3 ** i})",
        "Duration.ofSeconds(/* your answer */ 0)": f"Duration.ofSeconds({12 * i})",
        "/* true or false */ null": "true" if i <= 2 else "false",
        "/* your answer */ 0": str(4 * i),
    }


def learners_notebook(i: int) -> nbformat.NotebookNode:
    nb = nbformat.read(ROOT / "notebooks" / "02-cafe-simulation.ipynb", as_version=4)
    for cell in nb.cells:
        if cell.cell_type == "code":
            for old, new in guesses_of(i).items():
                cell.source = cell.source.replace(old, new)
            if 'SelfCheck.answer("02.3"' in cell.source:
                cell.source = cell.source.replace("Choice.NONE", "Choice.B" if i % 2 else "Choice.A")
    return nb


def right_answers(i: int) -> dict[str, bool]:
    """Which of learner i's self-check answers the kit's answer file says are right."""
    expect = {q["id"]: q["expect"] for q in SELFCHECK["questions"]}
    return {"02.1": f"PT{12 * i}S" == expect["02.1"], "02.2": (i <= 2) == expect["02.2"],
            "02.3": ("B" if i % 2 else "A") == expect["02.3"], "02.4": 4 * i == expect["02.4"]}


class Server:
    """A learner's single-user server, reached through the hub's proxy with the learner's token."""

    def __init__(self, room: Classroom, name: str, token: str):
        self.room, self.name, self.token = room, name, token
        self.base = f"{room.url}/user/{name}"

    def call(self, method: str, path: str, body: dict | None = None, token: str | None = None) -> tuple[int, object]:
        return call(method, f"{self.base}{path}", token or self.token, body)

    def new_kernel(self) -> str:
        status, session = self.call("POST", "/api/sessions", {"path": NOTEBOOK, "type": "notebook",
                                                               "name": "02-cafe-simulation.ipynb",
                                                               "kernel": {"name": "vthreads-java"}})
        assert status == 201, f"{self.name}: starting a kernel answered {status}: {session}"
        return session["kernel"]["id"]

    def kernels(self) -> list[dict]:
        status, ks = self.call("GET", "/api/kernels")
        assert status == 200, (status, ks)
        return ks


async def execute(server: Server, kernel: str, cells: list, timeout: float = 600, token: str | None = None) -> None:
    """Runs ``cells`` one after the other in ``kernel`` through the server's websocket, as a browser does, and
    puts each cell's outputs into it (nbformat's outputs, from the iopub messages)."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect
    url = f"{server.base.replace('http://', 'ws://')}/api/kernels/{kernel}/channels"
    ws = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {token or server.token}"}))
    try:
        for n, cell in enumerate(cells):
            msg_id = f"{server.name}-{kernel[:8]}-{n}-{time.monotonic_ns()}"
            await ws.write_message(json.dumps({
                "header": {"msg_id": msg_id, "username": server.name, "session": kernel, "msg_type": "execute_request",
                           "version": "5.3", "date": ""},
                "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                "content": {"code": cell.source, "silent": False, "store_history": True, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True}}))
            cell.outputs, replied, idle = [], False, False
            deadline = time.monotonic() + timeout
            while not (replied and idle):
                raw = await asyncio.wait_for(ws.read_message(), max(1.0, deadline - time.monotonic()))
                assert raw is not None, f"{server.name}: the kernel's websocket closed during cell {n}"
                msg = json.loads(raw)
                if msg.get("parent_header", {}).get("msg_id") != msg_id:
                    continue
                kind = msg["header"]["msg_type"]
                if msg["channel"] == "shell" and kind == "execute_reply":
                    replied = True
                elif kind == "status":
                    idle = msg["content"]["execution_state"] == "idle"
                elif kind in ("stream", "display_data", "execute_result", "error"):
                    cell.outputs.append(nbformat.v4.output_from_msg(msg))
    finally:
        ws.close()


def rss_by_uid_and_session() -> tuple[dict[int, int], dict[int, int]]:
    """Resident bytes of every process, summed by owner uid and by session id (from /proc)."""
    by_uid: dict[int, int] = {}
    by_sid: dict[int, int] = {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            status = Path(f"/proc/{p}/status").read_text()
            stat = Path(f"/proc/{p}/stat").read_text()
        except OSError:
            continue
        uid = int(re.search(r"^Uid:\s+(\d+)", status, re.M).group(1))
        m = re.search(r"^VmRSS:\s+(\d+) kB", status, re.M)
        rss = int(m.group(1)) * 1024 if m else 0
        sid = int(stat[stat.rindex(")") + 2:].split()[3])
        by_uid[uid] = by_uid.get(uid, 0) + rss
        by_sid[sid] = by_sid.get(sid, 0) + rss
    return by_uid, by_sid


class Peaks(threading.Thread):
    def __init__(self, uids: dict[str, int], hub_sid: int):
        super().__init__(daemon=True)
        self.uids, self.hub_sid = uids, hub_sid
        self.peak = {name: 0 for name in [*uids, "hub"]}
        self.done = threading.Event()

    def run(self) -> None:
        while not self.done.wait(0.2):
            by_uid, by_sid = rss_by_uid_and_session()
            for name, uid in self.uids.items():
                self.peak[name] = max(self.peak[name], by_uid.get(uid, 0))
            self.peak["hub"] = max(self.peak["hub"], by_sid.get(self.hub_sid, 0))


def chromium():
    """Headless Chromium with Debian's driver (never a downloaded one)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    opts = webdriver.ChromeOptions()
    opts.binary_location = shutil.which("chromium")
    for a in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1400,900"):
        opts.add_argument(a)
    return webdriver.Chrome(service=Service(shutil.which("chromedriver")), options=opts)


def log_in(driver, room: Classroom, name: str, then: str = "") -> None:
    from selenium.webdriver.common.by import By
    driver.get(f"{room.url}/hub/login" + (f"?next={then}" if then else ""))
    driver.find_element(By.ID, "username_input").send_keys(name)
    driver.find_element(By.ID, "password_input").send_keys(room.password)
    driver.find_element(By.ID, "login_submit").click()


def browser_login(room: Classroom, name: str) -> dict:
    """Logs ``name`` in through the hub's login form in headless Chromium; returns what the learner saw."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    driver = chromium()
    try:
        log_in(driver, room, name)
        wait = WebDriverWait(driver, 240)
        wait.until(lambda d: f"/user/{name}/lab/tree/vthreads-course/notebooks/00-welcome.ipynb" in d.current_url)
        # JupyterLab opened the course's first notebook and started its kernel, the course's, in the learner's server
        wait.until(lambda d: d.find_elements(By.XPATH, "//*[contains(text(), 'Java 25 (virtual threads course) | Idle')]"))
        OUT.mkdir(parents=True, exist_ok=True)
        driver.save_screenshot(str(OUT / f"{name}-jupyterlab.png"))
        return {"url": driver.current_url, "kernel": "Java 25 (virtual threads course)"}
    finally:
        driver.quit()


# ------------------------------------------------------------------------------------------------- the class

@pytest.fixture(scope="module")
def classroom(tmp_path_factory):
    folder = Path(f"/tmp/vthreads-classroom-test-{os.getpid()}")
    room = Classroom(folder, LEARNERS, scale="quick",
                     cull={"timeout": SERVER_IDLE, "every": SERVER_CULL_EVERY},
                     kernel_culling={"cull_idle_timeout": KERNEL_IDLE, "cull_interval": KERNEL_CULL_EVERY},
                     activity_interval=ACTIVITY_EVERY)
    room.start()
    try:
        yield room
    finally:
        room.stop(keep_log=OUT / "jupyterhub.log")
        assert not any(_user_exists(n) for n in LEARNERS), "the learners' system users outlived the classroom"
        assert not folder.exists()


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
        return True
    except KeyError:
        return False


@pytest.fixture(scope="module")
def lesson(classroom):
    """The five learners at once; returns what each did and saw."""
    room = classroom
    uids = {n: pwd.getpwnam(n).pw_uid for n in LEARNERS}
    peaks = Peaks(uids, room.hub.pid)
    peaks.start()
    t0 = time.monotonic()
    seen: dict = {"browser": None, "errors": []}

    def log_in_with_the_browser():
        try:
            seen["browser"] = browser_login(room, BROWSER_LEARNER)
        except Exception as e:  # reported by the test that reads it
            seen["errors"].append(f"browser: {type(e).__name__}: {e}")

    browser = threading.Thread(target=log_in_with_the_browser)
    browser.start()
    tokens = {}
    for name in LEARNERS[1:]:
        req = urllib.request.Request(f"{room.url}/hub/api/users/{name}/tokens", method="POST",
                                     data=json.dumps({"auth": {"username": name, "password": room.password}}).encode(),
                                     headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=60) as r:
            tokens[name] = json.loads(r.read())["token"]
        status, _ = room.api("POST", f"/users/{name}/server", token=tokens[name])
        assert status in (201, 202), (name, status)
    browser.join()
    assert seen["browser"], seen["errors"]
    # the browser learner's server was started by the login; a token for the notebook's websocket
    status, made = room.api("POST", f"/users/{BROWSER_LEARNER}/tokens", body={"note": "the test's notebook run"})
    assert status == 201, made
    tokens[BROWSER_LEARNER] = made["token"]
    servers = {n: Server(room, n, tokens[n]) for n in LEARNERS}
    for n in LEARNERS:
        _wait_ready(room, n)
    logged_in = time.monotonic() - t0

    notebooks = {n: learners_notebook(i) for i, n in enumerate(LEARNERS, 1)}
    kernels = {n: servers[n].new_kernel() for n in LEARNERS}

    async def all_at_once():
        return await asyncio.gather(*[execute(servers[n], kernels[n], [c for c in notebooks[n].cells
                                                                      if c.cell_type == "code"])
                                      for n in LEARNERS], return_exceptions=True)

    t1 = time.monotonic()
    results = asyncio.run(all_at_once())
    ran = time.monotonic() - t1
    peaks.done.set()
    peaks.join()
    OUT.mkdir(parents=True, exist_ok=True)
    for n in LEARNERS:
        nbformat.write(notebooks[n], OUT / f"{n}-02-cafe-simulation.ipynb")
    ended = time.monotonic()
    return {"room": room, "servers": servers, "tokens": tokens, "kernels": kernels, "notebooks": notebooks,
            "results": dict(zip(LEARNERS, results)), "peaks": peaks.peak, "logged_in": logged_in, "ran": ran,
            "ended": ended, "browser": seen["browser"]}


def _wait_ready(room: Classroom, name: str, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, user = room.api("GET", f"/users/{name}")
        server = (user or {}).get("servers", {}).get("") if status == 200 else None
        if server and server.get("ready"):
            return
        time.sleep(0.25)
    raise AssertionError(f"{name}'s server was not ready within {timeout:.0f} s")


# ------------------------------------------------------------------------------------------------- the tests

def test_five_learners_run_notebook_02_and_grade_exercise_02_at_the_same_time(lesson):
    stubs = json.loads((ROOT / "grader/src/test/resources/golden/02-cafe/stubs.json").read_text())
    for name in LEARNERS:
        assert lesson["results"][name] is None, f"{name}: {lesson['results'][name]!r}"
        cells = [c for c in lesson["notebooks"][name].cells if c.cell_type == "code"]
        problems = [f"cell {i}: {p}" for i, c in enumerate(cells) for p in problems_in(c)]
        assert not problems, f"{name}'s notebook 02:\n" + "\n".join(problems)
        grade = "\n".join(o.get("text", "") + json.dumps(o.get("data", {})) for o in cells[-1].outputs)
        assert f"0/{stubs['max_score']}" in grade, f"{name}'s grade cell: {grade[:400]}"
    print(f"\nfive learners logged in and their servers ready in {lesson['logged_in']:.0f} s; notebook 02 "
          f"(quick) with its grade cell, all five at once, in {lesson['ran']:.0f} s")


def test_the_browser_learner_logs_in_through_the_form_and_lands_in_jupyterlab_with_the_course_kernel(lesson):
    seen = lesson["browser"]
    assert f"/user/{BROWSER_LEARNER}/lab/tree/vthreads-course/notebooks/00-welcome.ipynb" in seen["url"], seen


def test_each_learners_peak_memory_is_within_values_yaml(lesson):
    limit = quantity(VALUES["singleuser"]["memory"]["limit"])
    guarantee = quantity(VALUES["singleuser"]["memory"]["guarantee"])
    hub_limit = quantity(VALUES["hub"]["resources"]["limits"]["memory"])
    hub_request = quantity(VALUES["hub"]["resources"]["requests"]["memory"])
    rows = [f"{'who':<10} {'peak':>9}   values.yaml"]
    for name in LEARNERS:
        rows.append(f"{name:<10} {lesson['peaks'][name] / GIB:>7.2f} GB   guarantee {guarantee / GIB:.2f} GB, "
                    f"limit {limit / GIB:.2f} GB")
    rows.append(f"{'hub':<10} {lesson['peaks']['hub'] / GIB:>7.2f} GB   request {hub_request / GIB:.2f} GB, "
                f"limit {hub_limit / GIB:.2f} GB (hub, proxy, idle culler, class view)")
    table = "\n".join(rows)
    print("\n" + table)
    (OUT / "memory.txt").write_text(table + "\n")
    for name in LEARNERS:
        assert 0 < lesson["peaks"][name] <= limit, table
    assert 0 < lesson["peaks"]["hub"] <= hub_limit, table


def test_a_learner_can_neither_read_another_home_nor_reach_another_kernel(lesson):
    servers = lesson["servers"]
    a, b = LEARNERS[1], LEARNERS[2]
    home_b = Path(pwd.getpwnam(b).pw_dir)
    for cmd in (["ls", str(home_b)], ["cat", str(home_b / NOTEBOOK)]):
        r = subprocess.run(["runuser", "-u", a, "--", *cmd], capture_output=True, text=True)
        assert r.returncode != 0 and "Permission denied" in r.stderr, (cmd, r.returncode, r.stdout[:200], r.stderr)
    # b's own token reads b's kernels; a's token is refused by b's server and by b's kernel's websocket
    kernel_b = servers[b].new_kernel()
    assert any(k["id"] == kernel_b for k in servers[b].kernels()), "b's kernel, seen with b's token"
    status, _ = servers[b].call("GET", "/api/kernels", token=lesson["tokens"][a])
    assert status == 403, status
    with pytest.raises(Exception) as refused:
        asyncio.run(execute(servers[b], kernel_b, [nbformat.v4.new_code_cell("1 + 1")],
                            timeout=30, token=lesson["tokens"][a]))
    assert "403" in str(refused.value), refused.value


def homes_written(files: dict[str, Path]) -> dict[str, list[str]]:
    """Who wrote where: for each learner, the learners whose server's file landed in that learner's home. A
    spawner that gave two learners one home shows as a home holding two learners' files."""
    out: dict[str, list[str]] = {}
    for owner, f in files.items():
        home = next((n for n in LEARNERS if Path(pwd.getpwnam(n).pw_dir) in f.resolve().parents), "elsewhere")
        out.setdefault(home, []).append(owner)
    return out


def check_one_home_each(written: dict[str, list[str]]) -> None:
    shared = {home: who for home, who in written.items() if who != [home]}
    assert not shared, f"learners' servers writing outside a home of their own: {shared}"


def test_each_learner_has_a_home_of_their_own(lesson):
    files = {}
    for name, server in lesson["servers"].items():
        status, model = server.call("PUT", f"/api/contents/whoami-{name}.txt",
                                    {"type": "file", "format": "text", "content": name})
        assert status in (200, 201), (name, status, model)
        found = list(Path("/").glob(f"{str(lesson['room'].folder)[1:]}/home/*/whoami-{name}.txt"))
        assert len(found) == 1, found
        assert found[0].stat().st_uid == pwd.getpwnam(name).pw_uid
        files[name] = found[0]
    check_one_home_each(homes_written(files))
    homes = [Path(pwd.getpwnam(n).pw_dir) for n in LEARNERS]
    assert len(set(homes)) == len(LEARNERS) and all(oct(h.stat().st_mode)[-3:] == "700" for h in homes), homes


def test_the_home_check_fails_when_two_learners_share_a_home():
    """The check above, shown failing once: learner2's server writing into learner1's home."""
    with pytest.raises(AssertionError, match="outside a home of their own"):
        check_one_home_each({LEARNERS[0]: [LEARNERS[0], LEARNERS[1]]})


def test_an_idle_kernel_is_culled_at_the_configured_time_and_a_fresh_one_starts(lesson):
    name = LEARNERS[-1]
    server = lesson["servers"][name]
    kernel = server.new_kernel()
    asyncio.run(execute(server, kernel, [nbformat.v4.new_code_cell("int answer = 6 * 7;")], timeout=120))
    idle_since = time.monotonic()
    deadline = idle_since + KERNEL_IDLE + KERNEL_CULL_EVERY + 30
    while any(k["id"] == kernel for k in server.kernels()):
        assert time.monotonic() < deadline, f"{name}'s idle kernel was not culled after {KERNEL_IDLE} s idle"
        time.sleep(0.25)
    culled_after = time.monotonic() - idle_since
    assert culled_after >= KERNEL_IDLE - 0.5, f"culled {culled_after:.1f} s after its last cell: too early"
    fresh = server.new_kernel()
    cell = nbformat.v4.new_code_cell("Thread.ofVirtual().start(() -> {}).isVirtual()")
    asyncio.run(execute(server, fresh, [cell], timeout=120))
    assert any("true" in json.dumps(o.get("data", {})) for o in cell.outputs), cell.outputs
    print(f"\n{name}'s kernel culled {culled_after:.1f} s after its last cell (timeout {KERNEL_IDLE} s, "
          f"checked every {KERNEL_CULL_EVERY} s); a fresh kernel ran a cell")


def test_the_class_view_shows_every_learners_guesses_to_the_trainer_only(lesson):
    room = lesson["room"]
    view = f"{room.url}/services/class-view/api/class"

    def get(token):
        return call("GET", view, token)

    status, made = room.api("POST", f"/users/{room.trainer}/tokens", body={"note": "the trainer's view"})
    assert status == 201, made
    status, summary = get(made["token"])
    assert status == 200, status
    assert get(lesson["tokens"][LEARNERS[1]])[0] == 403, "a learner's token must not read the class view"
    preds = [p for p in summary["predictions"] if p["notebook"] == "02-cafe-simulation"]
    assert len(preds) >= 3, summary
    for p in preds:
        assert p["learners"] == LEARNERS, p
        assert sum(b["count"] for b in p["bins"]) == len(LEARNERS), p
        assert p["judged"] == len(LEARNERS) and p["model"] and p["measured"], p
    first = next(p for p in preds if p["guesses"] and p["guesses"][0] == 250 * 3)
    assert first["guesses"] == [250.0 * 3 ** i for i in range(1, 6)], first
    right = {qid: sum(right_answers(i)[qid] for i in range(1, 6)) for qid in ("02.1", "02.2", "02.3", "02.4")}
    checks = {c["id"]: c for c in summary["selfchecks"] if c["notebook"] == "02-cafe-simulation"}
    for qid, n in right.items():
        assert checks[qid]["answered"] == len(LEARNERS) and checks[qid]["right"] == n, (qid, checks[qid], n)
    assert checks["02.5"]["answered"] == 0, checks["02.5"]  # left at Choice.NONE by every learner
    # the trainer's page, as the trainer opens it: the hub's login, then the service (OAuth through the hub)
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    driver = chromium()
    try:
        log_in(driver, room, room.trainer, then="/services/class-view/")
        WebDriverWait(driver, 120).until(
            lambda d: d.find_elements(By.XPATH, f"//*[@id='who'][contains(., '{len(LEARNERS)} learners')]"))
        shown = driver.find_elements(By.CSS_SELECTOR, "#predictions .q")
        assert len(shown) == len(preds), [q.text for q in shown]
        driver.save_screenshot(str(OUT / "class-view.png"))
    finally:
        driver.quit()


def test_the_idle_culler_stops_idle_servers(lesson):
    room = lesson["room"]
    deadline = lesson["ended"] + SERVER_IDLE + 3 * max(SERVER_CULL_EVERY, ACTIVITY_EVERY) + 60
    running = LEARNERS
    while running:
        running = [n for n in LEARNERS if (room.api("GET", f"/users/{n}")[1] or {}).get("servers")]
        if running:
            assert time.monotonic() < deadline, f"servers still running {SERVER_IDLE} s after going idle: {running}"
            time.sleep(1)
    print(f"\nthe idle culler stopped every learner's server {time.monotonic() - lesson['ended']:.0f} s after the "
          f"class went idle (timeout {SERVER_IDLE} s, every {SERVER_CULL_EVERY} s)")
