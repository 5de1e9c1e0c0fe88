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
        assert cls.cluster.hook("POST", "/_gq/users",
                                {"name": "alice", "token": TOKEN, "rules": [rule]}) in (200, 201)
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
    def add_usage(cls, seconds):
        """One finished pod of alice's in team-a with 1 GPU, ending 30 minutes ago."""
        cls.pods += 1
        end = dt.datetime.now(dt.timezone.utc).replace(microsecond=0) - dt.timedelta(minutes=30)
        start = end - dt.timedelta(seconds=seconds)
        fmt = "%Y-%m-%dT%H:%M:%SZ"
        csv = os.path.join(cls.tmp, "usage-%d.csv" % cls.pods)
        with open(csv, "w") as f:
            f.write("cluster,namespace,user,pod_uid,pod_name,resource,gpus,start,end\n")
            f.write("test,team-a,alice,uid-%d,train-%d,nvidia.com/gpu,1,%s,%s\n"
                    % (cls.pods, cls.pods, start.strftime(fmt), end.strftime(fmt)))
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
