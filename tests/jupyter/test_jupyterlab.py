#!/usr/bin/env python3
"""The JupyterLab extension (jupyterlab/) in a real JupyterLab from PyPI, in headless
Chromium, against the real controller (gpuquota-controller) with the test cluster's
TokenReview and SubjectAccessReview and a usage database filled by the CLI:

- the panel and the status-bar item show the numbers of `gpuquota budget status`,
  the user's and the namespace's;
- below 20 % left the prompt appears once: not again after another cell, nor after a
  reload; in Chinese in a Chinese browser;
- over the limit, red with the grace end;
- a rejected token (the token file rewritten: read on every request): grey with the
  controller's reason on hover;
- "Request a boost" in the panel: a short note is refused inline under "Why" (the
  controller's note rule) and nothing is stored; a request sent from the panel is the one
  `gpuquota boost requests --pending -o json` lists; approved by another user with the CLI
  the panel shows it approved with the admin's reason and the raised limit; a denied one
  with the reason; a pending one withdrawn from the panel is withdrawn in the database;
  in English and Chinese;
- a newcomer: an unlimited allowance shows what was used, "no limit" and its last day,
  green and without the 20 % prompt although the plain budget is 95 % spent; x3 shows the
  raised remainder;
- every string of the extension has its Chinese;
- the controller stopped: grey with the reason on hover, and no popup.

Run by ctest (tests/jupyter/CMakeLists.txt) with the venv of scripts/jupyterlab.sh:
    build/jupyterlab/venv/bin/python tests/jupyter/test_jupyterlab.py
GQ_BIN_DIR: the built binaries. GQ_SCREENSHOT_DIR: where to copy the screenshots (docs/).
"""

import datetime as dt
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import unittest
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BIN = os.environ.get("GQ_BIN_DIR", os.path.join(HERE, "..", "..", "build", "ci", "bin"))
VENV_BIN = os.path.dirname(sys.executable)
TOKEN = "tok-alice"
SRC = os.path.join(HERE, "..", "..", "jupyterlab", "src")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(what, predicate, timeout=60.0, interval=0.5):
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        last = predicate()
        if last:
            return last
        time.sleep(interval)
    raise AssertionError("timed out waiting for %s (last: %r)" % (what, last))


def short_hours(h):
    """As SelfServicePage::shortHours."""
    s = "%.*f" % (2 if abs(h) < 1 and h != 0 else 1, h)
    if "." in s:
        s = s.rstrip("0").rstrip(".")
    return "0" if s == "-0" else s


def local_noon_zone():
    """An Etc/GMT zone where it is about noon now, so "today" holds the test's hours."""
    n = dt.datetime.now(dt.timezone.utc).hour - 12  # Etc/GMT+N is UTC-N
    return "Etc/GMT" if n == 0 else "Etc/GMT%+d" % n


class TestCluster:
    """gpuquota-testcluster; hooks over stdin/stdout as tests/testclusterprocess.h."""

    def __init__(self, tmp):
        self.kubeconfig = os.path.join(tmp, "kubeconfig")
        self.proc = subprocess.Popen(
            [os.path.join(BIN, "gpuquota-testcluster"), "--listen", "127.0.0.1:0",
             "--write-kubeconfig", self.kubeconfig, "--scenario", "empty", "--pods-stay-pending"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        line = self.proc.stdout.readline()
        if not line.startswith("ready "):
            raise AssertionError("test cluster did not start: %r" % line)

    def hook(self, method, path, body):
        self.proc.stdin.write("%s %s %s\n" % (method, path, json.dumps(body)))
        self.proc.stdin.flush()
        while True:
            line = self.proc.stdout.readline()
            if not line:
                raise AssertionError("test cluster gone")
            if line.startswith("hook "):
                return int(line.split()[1])

    def stop(self):
        self.proc.terminate()
        self.proc.wait(30)


class Driver:
    """tests/jupyter/drive.py: Playwright and the system's Chromium."""

    def __init__(self, url):
        self.proc = subprocess.Popen([sys.executable, os.path.join(HERE, "drive.py"), url],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        assert json.loads(self.proc.stdout.readline())["ready"]

    def __call__(self, command):
        self.proc.stdin.write(command + "\n")
        self.proc.stdin.flush()
        answer = json.loads(self.proc.stdout.readline())
        if not answer.pop("ok"):
            raise AssertionError("%s: %s" % (command, answer["error"]))
        return answer

    def quit(self):
        try:
            self.proc.stdin.write("quit\n")
            self.proc.stdin.flush()
            self.proc.wait(30)
        except (OSError, subprocess.TimeoutExpired):
            self.proc.kill()


class TestJupyterLab(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        if not shutil.which("kubectl"):
            raise AssertionError("kubectl is not on the PATH (scripts/install-deps.sh installs it)")
        for tool in ("gpuquota", "gpuquota-controller", "gpuquota-testcluster"):
            if not os.access(os.path.join(BIN, tool), os.X_OK):
                raise AssertionError("%s not built in %s" % (tool, BIN))
        if not shutil.which(os.environ.get("GQ_CHROMIUM", "chromium")):
            raise AssertionError("chromium is not installed (scripts/install-deps.sh installs it)")
        if not os.access(os.path.join(VENV_BIN, "jupyter-lab"), os.X_OK):
            raise AssertionError("no JupyterLab beside %s (scripts/jupyterlab.sh makes the venv)"
                                 % sys.executable)
        cls.tmp = tempfile.mkdtemp(prefix="gq-jupyter-")
        cls.db = "sqlite://" + os.path.join(cls.tmp, "usage.db")
        cls.zone = local_noon_zone()
        cls.cluster = TestCluster(cls.tmp)
        for ns in ("team-a", "gpuquota-system"):  # the controller publishes its audit head there
            subprocess.run(["kubectl", "--kubeconfig", cls.cluster.kubeconfig, "create", "namespace", ns],
                           check=True, capture_output=True, timeout=60)
        rule = {"namespaces": ["team-a"], "verbs": ["get"], "resources": ["resourcequotas"]}
        may_request = {"namespaces": ["*"], "verbs": ["create"], "resources": ["boostrequests"]}
        for name, token in (("alice", TOKEN), ("carol", "tok-carol")):
            assert cls.cluster.hook("POST", "/_gq/users",
                                    {"name": name, "token": token, "rules": [rule, may_request]}) in (200, 201)
        cls.gq("budget", "set", "--user", "alice", "--period", "day", "--limit", "10", "--grace", "4h",
               "--tz", cls.zone)
        cls.gq("budget", "set", "--namespace", "team-a", "--period", "day", "--limit", "40",
               "--tz", cls.zone)
        cls.pods = 0
        cls.add_usage(5 * 3600)
        cls.start_controller()
        cls.start_lab()
        cls.driver = Driver("http://127.0.0.1:%d/lab/tree/work.ipynb?token=%s" % (cls.lab_port, cls.lab_token))

    @classmethod
    def tearDownClass(cls):
        for stop in (lambda: cls.driver.quit(), lambda: cls.stop_process(cls.lab),
                     lambda: cls.stop_process(cls.controller), lambda: cls.cluster.stop()):
            try:
                stop()
            except Exception as error:  # keep stopping the others
                print("teardown:", error, file=sys.stderr)
        shutil.rmtree(cls.tmp, ignore_errors=True)

    @classmethod
    def gq(cls, *args):
        r = subprocess.run([os.path.join(BIN, "gpuquota"), args[0], *args[1:2], "--db", cls.db, *args[2:]],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise AssertionError("gpuquota %s: %s" % (" ".join(args), r.stderr))
        return r.stdout

    @classmethod
    def gq_db_last(cls, *args):
        """gpuquota ARGS --db DB (for verbs with a word after the second)."""
        r = subprocess.run([os.path.join(BIN, "gpuquota"), *args, "--db", cls.db],
                           capture_output=True, text=True, timeout=60)
        if r.returncode != 0:
            raise AssertionError("gpuquota %s: %s" % (" ".join(args), r.stderr))
        return r.stdout

    @classmethod
    def add_usage(cls, seconds, user="alice"):
        """One finished pod of USER's in team-a with 1 GPU, ending 30 minutes ago."""
        cls.pods += 1
        end = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) - dt.timedelta(minutes=30)
        start = end - dt.timedelta(seconds=seconds)
        fmt = "%Y-%m-%dT%H:%M:%SZ"
        csv = os.path.join(cls.tmp, "usage-%d.csv" % cls.pods)
        with open(csv, "w") as f:
            f.write("cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n")
            f.write("test,team-a,%s,uid-%d,train-%d,nvidia.com/gpu,1,%s,%s\n"
                    % (user, cls.pods, cls.pods, start.strftime(fmt), end.strftime(fmt)))
        cls.gq("import", csv)

    @classmethod
    def start_controller(cls):
        cls.listen = free_port()
        config = os.path.join(cls.tmp, "controller.yaml")
        with open(config, "w") as f:
            f.write("cluster: {kubeconfig: %s, context: admin}\nclusterName: test\n"
                    "database: %s\nlisten: 127.0.0.1:%d\ntimeZone: UTC\nspool: %s\n"
                    "leaderElection: {enabled: false}\n"
                    % (cls.cluster.kubeconfig, cls.db, cls.listen, os.path.join(cls.tmp, "spool")))
        cls.controller = subprocess.Popen([os.path.join(BIN, "gpuquota-controller"), "--config", config])

        def ready():
            try:
                return urllib.request.urlopen("http://127.0.0.1:%d/readyz" % cls.listen, timeout=5).status == 200
            except OSError:
                return False

        wait_for("the controller's /readyz", ready, 60)

    @classmethod
    def start_lab(cls):
        cls.lab_port = free_port()
        cls.lab_token = "lab-token-for-the-test"
        root = os.path.join(cls.tmp, "notebooks")
        os.makedirs(root)
        notebook = {"cells": [{"cell_type": "code", "metadata": {}, "source": "sum(range(10))",
                               "outputs": [], "execution_count": None}],
                    "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3",
                                                "language": "python"}},
                    "nbformat": 4, "nbformat_minor": 5}
        with open(os.path.join(root, "work.ipynb"), "w") as f:
            json.dump(notebook, f)
        # No news prompt over the screenshots.
        settings = os.path.join(cls.tmp, "lab-settings", "@jupyterlab", "apputils-extension")
        os.makedirs(settings)
        with open(os.path.join(settings, "notification.jupyterlab-settings"), "w") as f:
            json.dump({"fetchNews": "false"}, f)
        # The token from a file, as a pod's projected ServiceAccount token (read each time).
        cls.token_file = os.path.join(cls.tmp, "token")
        with open(cls.token_file, "w") as f:
            f.write(TOKEN + "\n")
        env = {k: v for k, v in os.environ.items() if not k.startswith("GPUQUOTA_")}
        env = dict(env, GPUQUOTA_URL="http://127.0.0.1:%d" % cls.listen,
                   GPUQUOTA_TOKEN_FILE=cls.token_file,
                   GPUQUOTA_NAMESPACE="team-a", JUPYTER_CONFIG_DIR=os.path.join(cls.tmp, "jcfg"),
                   JUPYTER_RUNTIME_DIR=os.path.join(cls.tmp, "jrt"),
                   JUPYTERLAB_SETTINGS_DIR=os.path.join(cls.tmp, "lab-settings"),
                   JUPYTERLAB_WORKSPACES_DIR=os.path.join(cls.tmp, "lab-workspaces"))
        cls.lab_log = open(os.path.join(cls.tmp, "lab.log"), "w")
        cls.lab = subprocess.Popen(
            [os.path.join(VENV_BIN, "jupyter-lab"), "--no-browser", "--allow-root", "--ip=127.0.0.1",
             "--port=%d" % cls.lab_port, "--ServerApp.token=" + cls.lab_token,
             "--ServerApp.root_dir=" + root, "--LabApp.expose_app_in_browser=True"],
            env=env, stdout=cls.lab_log, stderr=subprocess.STDOUT)

        def up():
            try:
                url = "http://127.0.0.1:%d/api/status?token=%s" % (cls.lab_port, cls.lab_token)
                return urllib.request.urlopen(url, timeout=5).status == 200
            except OSError:
                return False

        wait_for("JupyterLab", up, 120)

    @staticmethod
    def stop_process(proc):
        if proc.poll() is None:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(20)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait(10)

    def budget(self, *who):
        return json.loads(self.gq("budget", "status", *who, "-o", "json"))

    def state_until(self, what, predicate, timeout=90):
        return wait_for(what, lambda: (lambda s: s if predicate(s) else None)(self.driver("state")), timeout)

    def ours(self, state):
        return [t for t in state["toasts"] if "20 %" in t]

    def shot(self, name):
        out = os.environ.get("GQ_SCREENSHOT_DIR")
        path = os.path.join(out if out else self.tmp, name)
        self.driver("shot " + path)
        self.assertGreater(os.path.getsize(path), 10000)

    def expected_line(self, b):
        return "%s GPU-h left of %s today" % (short_hours(b["remaining"]), short_hours(b["limit"]))

    def test_0_every_string_translated(self):
        """Each w.t('...') of the extension (and the spans and controller messages it
        translates) has its Chinese in i18n.ts."""
        import re
        with open(os.path.join(SRC, "i18n.ts"), encoding="utf-8") as f:
            zh = set(re.findall(r"^  '((?:[^'\\]|\\.)*)':", f.read(), re.M))
        used = set()
        for name in os.listdir(SRC):
            with open(os.path.join(SRC, name), encoding="utf-8") as f:
                text = f.read()
            used |= {m.replace("\\'", "'") for m in re.findall(r"w\.t\(\s*'((?:[^'\\]|\\.)*)'", text)}
            used |= set(re.findall(r'w\.t\(\s*"([^"]*)"', text))
            for m in re.findall(r"w\.t\(\s*`([^`]*)`", text):
                used |= {m.replace("${per}", p) for p in ("today", "this week", "this month")}
            used |= set(re.findall(r"\['\d+[hd]', '([^']*)'\]", text))
        with open(os.path.join(SRC, "requests.ts"), encoding="utf-8") as f:
            known = re.search(r"const KNOWN = \[(.*?)\];", f.read(), re.S).group(1)
        used |= set(re.findall(r"'([^']*)'", known))
        used |= {"pending", "approved", "denied", "expired", "withdrawn", "Why"}
        zh = {z.replace("\\'", "'") for z in zh}
        self.assertGreater(len(used), 50)
        self.assertEqual(sorted(used - zh), [])

    def test_1_panel_shows_budget_status(self):
        self.driver("open en-GB")
        mine = [b for b in self.budget("--user", "alice")["budgets"] if b["period"] == "day"][0]
        ns = [b for b in self.budget("--namespace", "team-a")["budgets"] if b["period"] == "day"][0]
        self.assertAlmostEqual(mine["remaining"], 5, delta=0.05)
        want_user, want_ns = self.expected_line(mine), self.expected_line(ns)
        s = self.state_until("the panel's numbers", lambda s: s["user"]["text"] == want_user)
        self.assertEqual(s["user"]["state"], "ok")
        self.assertEqual(s["user"]["label"], "You (alice)")
        self.assertEqual(s["namespace"]["text"], want_ns)
        self.assertEqual(s["namespace"]["label"], "Namespace team-a")
        self.assertEqual(s["statusText"], want_user)
        self.assertEqual(self.ours(s), [])

    def test_2_prompt_once_below_20_percent(self):
        self.add_usage(int(3.5 * 3600))  # 8.5 of 10 used: 15 % left
        mine = [b for b in self.budget("--user", "alice")["budgets"] if b["period"] == "day"][0]
        want = self.expected_line(mine)
        # A finished cell asks again at once (the minute's timer is not what answers here).
        asked = self.driver("asked")["asked"]
        self.driver("run")
        wait_for("a request after the cell", lambda: self.driver("asked")["asked"] > asked, 5, 0.2)
        s = self.state_until("the prompt", lambda s: s["user"]["text"] == want and self.ours(s), 30)
        self.assertEqual(s["user"]["state"], "near")
        self.assertEqual(len(self.ours(s)), 1, s["toasts"])
        self.assertIn("Check your training's efficiency", self.ours(s)[0])
        self.shot("jupyterlab-prompt.png")
        # Another cell, then a reload: no second prompt in this period.
        before = s["updated"]
        self.driver("run")
        time.sleep(2)
        s = self.driver("state")
        self.assertEqual(len(self.ours(s)), 1, s["toasts"])
        self.driver("reload")
        s = self.state_until("the panel after the reload", lambda s: s["user"]["text"] == want)
        time.sleep(2)
        self.assertEqual(self.ours(self.driver("state")), [])
        self.assertTrue(before)
        # A Chinese browser (a new profile: its own "once").
        self.driver("open zh-CN")
        s = self.state_until("the Chinese prompt", lambda s: any("建议检查训练效率，避免中途被终止" in t for t in s["toasts"]))
        self.assertEqual(s["user"]["text"], "今日剩余 %s / %s GPU 小时" % (short_hours(mine["remaining"]),
                                                                        short_hours(mine["limit"])))
        self.shot("jupyterlab-prompt-zh_CN.png")

    def kubectl(self, *args):
        r = subprocess.run(["kubectl", "--kubeconfig", self.cluster.kubeconfig, *args],
                           capture_output=True, text=True, timeout=60)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_3_over_red_with_grace_end(self):
        self.driver("open en-GB")
        # A pod of alice's with 1 GPU, running for 2 h, as the controller records it:
        # 10.5 of 10 used, in grace (4 h for each running GPU).
        pod = os.path.join(self.tmp, "pod.yaml")
        with open(pod, "w") as f:
            f.write("apiVersion: v1\nkind: Pod\nmetadata:\n  name: train\n  namespace: team-a\n"
                    "  labels: {gpuquota.io/user: alice}\nspec:\n  containers:\n  - name: main\n"
                    "    image: cuda\n    resources:\n      limits: {nvidia.com/gpu: \"1\"}\n")
        self.kubectl("create", "-f", pod)
        started = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) - dt.timedelta(hours=2)
        self.assertEqual(self.cluster.hook("POST", "/_gq/pods/team-a/train/phase",
                                           {"phase": "Running",
                                            "startedAt": started.strftime("%Y-%m-%dT%H:%M:%SZ")}), 200)

        def in_grace():
            mine = [b for b in self.budget("--user", "alice")["budgets"] if b["period"] == "day"][0]
            return mine if mine["state"] == "grace" else None

        mine = wait_for("the controller recording the running pod", in_grace, 60)
        self.assertTrue(mine.get("grace_end"), mine)
        self.driver("run")
        s = self.state_until("the red state", lambda s: s["user"]["state"] == "grace")
        self.assertRegex(s["user"]["text"], r"^0\.5\d? GPU-h over 10 today, in grace$")
        # The grace end of `gpuquota budget status` (in the budget's zone), to the minute.
        end = dt.datetime.fromisoformat(mine["grace_end"].replace("Z", "+00:00"))
        near = {(end + dt.timedelta(minutes=m)).strftime("%H:%M") for m in (-1, 0, 1)}
        self.assertIn(s["user"]["note"], {"Grace ends at %s: then new GPU jobs are refused." % t for t in near})
        self.assertEqual(s["status"]["state"], "grace")
        # This profile was prompted at 15 % on opening; over the limit the prompt is withdrawn.
        self.assertEqual(self.ours(self.state_until("the prompt withdrawn", lambda s: not self.ours(s), 10)), [])
        self.assertEqual(s["user"]["colour"], "rgb(198, 40, 40)")  # #c62828, the page's red
        self.shot("jupyterlab-over.png")

    def test_4_grey_on_a_rejected_token(self):
        with open(self.token_file, "w") as f:
            f.write("tok-nobody\n")
        try:
            self.driver("run")
            s = self.state_until("the grey state", lambda s: s["user"]["state"] == "error")
            self.assertEqual(s["user"]["text"], "GPU quota unavailable")
            self.assertEqual(s["user"]["title"], "the cluster did not accept the token")
            self.assertEqual(self.ours(s), [])
        finally:
            with open(self.token_file, "w") as f:
                f.write(TOKEN + "\n")
        self.driver("run")
        self.state_until("the battery again", lambda s: s["user"]["state"] == "grace")

    def requests_in_db(self, *flags):
        return json.loads(self.gq("boost", "requests", *flags, "-o", "json"))["requests"]

    def panel_request(self, state, rid):
        found = [r for r in state["requests"] if r["id"] == rid]
        return found[0] if found else None

    def test_4b_request_from_the_panel(self):
        self.driver("open en-GB")
        self.driver("size 1280 1000")
        self.state_until("the panel", lambda s: s["user"]["state"] == "grace")
        # The controller's note rule, inline under "Why"; nothing stored.
        answer = self.driver('request {"hours": 3, "for": "1d", "note": "short"}')
        self.assertEqual(answer["errors"], {
            "note": "Why: a note of at least 10 characters is required (why this boost?)"}, answer)
        self.assertEqual(answer["message"], "")
        self.assertEqual(self.requests_in_db(), [])
        # Sent: the request `boost requests --pending` lists, with the notebook's identity.
        note = "paper deadline on Friday, final runs"
        sent_at = dt.datetime.now(dt.timezone.utc)
        answer = self.driver("request " + json.dumps({"hours": 5, "for": "1d", "note": note}))
        pending = self.requests_in_db("--pending")
        self.assertEqual(len(pending), 1, pending)
        r = pending[0]
        self.assertEqual(answer["message"], "Request #%d sent: an admin approves or denies it." % r["id"])
        self.assertEqual(answer["errors"], {})
        self.assertEqual((r["requester"], r["budget"], r["hours"], r["note"], r["state"]),
                         ("alice", "user:alice", 5, note, "pending"))
        until = dt.datetime.fromisoformat(r["until"].replace("Z", "+00:00"))
        self.assertLess(abs((until - sent_at - dt.timedelta(days=1)).total_seconds()), 120)
        s = self.state_until("the pending request in the panel",
                             lambda s: (self.panel_request(s, r["id"]) or {}).get("state") == "pending", 30)
        mine = self.panel_request(s, r["id"])
        self.assertTrue(mine["withdraw"])
        self.assertEqual(mine["badge"], "pending")
        self.assertRegex(mine["text"], r"^#%d: 5 GPU-h until \d\d-\d\d \d\d:\d\d$" % r["id"])
        # Approved by bob with the CLI: the panel shows it, and the limit is 10 + 5.
        self.gq("boost", "approve", str(r["id"]), "--note", "approved for the deadline", "--actor", "bob")
        self.driver("run")
        s = self.state_until("the approval in the panel",
                             lambda s: (self.panel_request(s, r["id"]) or {}).get("state") == "approved")
        mine = self.panel_request(s, r["id"])
        self.assertEqual((mine["badge"], mine["decision"], mine["withdraw"]),
                         ("approved", "bob: approved for the deadline", False))
        budget = [b for b in self.budget("--user", "alice")["budgets"] if b["period"] == "day"][0]
        self.assertAlmostEqual(budget["limit"], 15, delta=0.01)
        s = self.state_until("the raised limit", lambda s: s["user"]["text"].endswith(" GPU-h left of 15 today"))
        self.assertEqual(s["user"]["state"], "ok")
        # Denied with a reason.
        answer = self.driver('request ' + json.dumps({"hours": 2, "for": "6h", "note": "one more ablation run"}))
        denied = self.requests_in_db("--pending")[0]
        self.assertEqual(answer["message"], "Request #%d sent: an admin approves or denies it." % denied["id"])
        self.gq("boost", "deny", str(denied["id"]), "--note", "the cluster is full this week", "--actor", "bob")
        self.driver("run")
        s = self.state_until("the denial in the panel",
                             lambda s: (self.panel_request(s, denied["id"]) or {}).get("state") == "denied")
        self.assertEqual(self.panel_request(s, denied["id"])["decision"], "bob: the cluster is full this week")
        # Withdrawn from the panel (a reason first, the note rule again).
        self.driver('request ' + json.dumps({"hours": 1, "for": "2h", "note": "a quick check of the loss"}))
        third = self.requests_in_db("--pending")[0]
        self.state_until("the third request", lambda s: self.panel_request(s, third["id"]) is not None, 30)
        answer = self.driver("withdraw " + json.dumps({"id": third["id"], "note": "no"}))
        self.assertEqual(answer["state"], "pending")
        self.assertIn("Why: a note of at least 10 characters", answer["error"])
        answer = self.driver("withdraw " + json.dumps({"id": third["id"], "note": "the loss is fine after all"}))
        self.assertEqual(answer["state"], "withdrawn")
        self.assertEqual(self.requests_in_db("--pending"), [])
        self.assertEqual([x["state"] for x in self.requests_in_db("--state", "withdrawn")], ["withdrawn"])
        s = self.state_until("the list", lambda s: len(s["requests"]) == 3)
        self.assertEqual([x["state"] for x in s["requests"]].count("approved"), 1)
        # The screenshots: the form with a decision in each language.
        self.driver('request {"hours": 2, "for": "3d", "note": "x"}')  # an inline error in the shot
        self.shot("jupyterlab-requests.png")
        self.driver("open zh-CN")
        self.driver("size 1280 1000")
        s = self.state_until("the Chinese list", lambda s: len(s["requests"]) == 3)
        self.assertEqual(self.panel_request(s, r["id"])["badge"], "已批准")
        self.assertEqual(self.panel_request(s, denied["id"])["badge"], "已拒绝")
        self.assertEqual(self.panel_request(s, r["id"])["text"][:len("#%d：5 GPU 小时，至 " % r["id"])],
                         "#%d：5 GPU 小时，至 " % r["id"])
        answer = self.driver('request {"hours": 2, "for": "3d", "note": "x"}')
        self.assertEqual(answer["errors"]["note"], "原因：需要至少 10 个字符的说明（为什么需要提额？）")
        self.shot("jupyterlab-requests-zh_CN.png")
        self.driver("size 1280 720")

    def test_4c_newcomer_allowance(self):
        # carol: 1.9 of 2 GPU-h used (95 %: the plain budget would prompt), added as a newcomer.
        # (Added before her first interval: the controller's sweep would add her as well.)
        self.gq("budget", "set", "--user", "carol", "--period", "day", "--limit", "2", "--tz", self.zone)
        self.gq_db_last("budget", "newcomer", "policy", "7d:unlimited", "--note", "first week free for new users")
        self.gq_db_last("budget", "newcomer", "add", "carol", "--note", "joined the team today", "--actor", "bob")
        self.add_usage(int(1.9 * 3600), user="carol")
        carol = [b for b in self.budget("--user", "carol")["budgets"] if b["period"] == "day"][0]
        self.assertTrue(carol["unlimited"], carol)
        self.assertAlmostEqual(carol["used"], 1.9, delta=0.01)
        end = dt.datetime.fromisoformat(carol["newcomerUntil"].replace("Z", "+00:00")) - dt.timedelta(seconds=1)
        last_day = end.strftime("%m-%d")  # in the budget's zone: the offset is the instant's
        with open(self.token_file, "w") as f:
            f.write("tok-carol\n")
        try:
            self.driver("open en-GB")
            s = self.state_until("carol's unlimited allowance",
                                 lambda s: s["user"]["text"] == "No limit: 1.9 GPU-h used today")
            self.assertEqual(s["user"]["label"], "You (carol)")
            self.assertEqual(s["newcomer"], "newcomer: unlimited until %s" % last_day)
            self.assertEqual(s["user"]["state"], "ok")
            self.assertEqual(s["user"]["note"], "")
            self.assertEqual(s["statusText"], "No limit: 1.9 GPU-h used today · newcomer: unlimited until %s"
                             % last_day)
            time.sleep(2)
            self.assertEqual(self.ours(self.driver("state")), [])
            self.shot("jupyterlab-newcomer.png")
            # x3: the raised limit's remainder (6 - 1.9).
            self.gq_db_last("budget", "newcomer", "policy", "7d:x3", "--note", "three times the budget now")
            carol = [b for b in self.budget("--user", "carol")["budgets"] if b["period"] == "day"][0]
            self.assertAlmostEqual(carol["limit"], 6, delta=0.01)
            self.driver("run")
            s = self.state_until("carol's x3 allowance", lambda s: s["user"]["text"] == "4.1 GPU-h left of 6 today")
            self.assertEqual(s["newcomer"], "newcomer: x3 until %s" % last_day)
            self.driver("open zh-CN")
            s = self.state_until("the Chinese allowance", lambda s: s["newcomer"] == "新人额度：×3，至 %s" % last_day)
            self.assertEqual(s["user"]["text"], "今日剩余 4.1 / 6 GPU 小时")
        finally:
            with open(self.token_file, "w") as f:
                f.write(TOKEN + "\n")
            self.driver("open en-GB")

    def test_5_grey_on_a_stopped_controller(self):
        self.stop_process(self.controller)
        self.driver("run")
        s = self.state_until("the grey state", lambda s: s["user"]["state"] == "error")
        self.assertEqual(s["user"]["text"], "GPU quota unavailable")
        self.assertIn("not reachable", s["user"]["title"])
        self.assertIn("not reachable", s["status"]["title"])
        self.assertEqual(s["statusText"], "GPU quota unavailable")
        # Quiet: no popup, however often it asks.
        toasts = len(s["toasts"])
        self.driver("run")
        time.sleep(2)
        self.assertEqual(len(self.driver("state")["toasts"]), toasts)
        self.shot("jupyterlab-unavailable.png")


if __name__ == "__main__":
    unittest.main(verbosity=2)
