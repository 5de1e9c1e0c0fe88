"""``GET <base_url>/gpuquota/status``: the controller's ``/quota/status`` for the frontend.

Identity: ``GPUQUOTA_TOKEN``, else the file ``GPUQUOTA_TOKEN_FILE``, else the pod's
ServiceAccount token (read on every request: projected tokens rotate). The controller:
``GPUQUOTA_URL``, else the in-cluster Service. The namespace whose budget is shown beside
the user's: ``GPUQUOTA_NAMESPACE``, else the pod's own (the ServiceAccount's namespace file).

The answer is always 200 with ``{"user": PART, "namespace": PART|null}``, each PART either
``{"ok": true, "status": {...}}`` or ``{"ok": false, "code": HTTP|0, "reason": TEXT}``: the
frontend shows a failure as a quiet grey state, never as an error dialog. The token is
never logged nor sent to the browser.
"""

import json
import os
from urllib.parse import quote

import tornado.web
from jupyter_server.base.handlers import APIHandler
from jupyter_server.utils import url_path_join
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest

SA_DIR = "/var/run/secrets/kubernetes.io/serviceaccount"
IN_CLUSTER_URL = "http://gpuquota-controller.gpuquota-system.svc:9464"
TIMEOUT_SECONDS = 5.0


def controller_url():
    return os.environ.get("GPUQUOTA_URL", "").strip().rstrip("/") or IN_CLUSTER_URL


def _read(path):
    try:
        with open(path, encoding="utf-8") as f:
            return f.read().strip()
    except OSError:
        return ""


def token():
    value = os.environ.get("GPUQUOTA_TOKEN", "").strip()
    if value:
        return value
    return _read(os.environ.get("GPUQUOTA_TOKEN_FILE", "") or os.path.join(SA_DIR, "token"))


def namespace():
    return os.environ.get("GPUQUOTA_NAMESPACE", "").strip() or _read(os.path.join(SA_DIR, "namespace"))


def _reason(code, body):
    try:
        text = json.loads(body).get("error", "")
    except (ValueError, AttributeError):
        text = ""
    if not text:
        text = {401: "the controller did not accept this notebook's token",
                403: "not allowed to see this budget"}.get(code, "the controller answered %d" % code)
    return text[:300]


async def fetch_part(query, bearer):
    """One /quota/status answer as a PART (see the module's text)."""
    if not bearer:
        return {"ok": False, "code": 0,
                "reason": "no token: set GPUQUOTA_TOKEN or mount the pod's ServiceAccount token"}
    url = controller_url() + "/quota/status" + query
    request = HTTPRequest(url, method="GET", headers={"Authorization": "Bearer " + bearer},
                          connect_timeout=TIMEOUT_SECONDS, request_timeout=TIMEOUT_SECONDS,
                          ca_certs=os.environ.get("GPUQUOTA_CA_FILE") or None)
    unreachable = "the controller at %s is not reachable (%s)"
    try:
        response = await AsyncHTTPClient().fetch(request, raise_error=False)
    except (OSError, HTTPClientError) as error:
        return {"ok": False, "code": 0, "reason": unreachable % (controller_url(), error)}
    if response.code == 599:  # no HTTP answer: refused, timed out, TLS
        return {"ok": False, "code": 0, "reason": unreachable % (controller_url(), response.error)}
    body = response.body.decode("utf-8", "replace") if response.body else ""
    if response.code != 200:
        return {"ok": False, "code": response.code, "reason": _reason(response.code, body)}
    try:
        return {"ok": True, "status": json.loads(body)}
    except ValueError:
        return {"ok": False, "code": 200, "reason": "the controller's answer is not JSON"}


class StatusHandler(APIHandler):
    @tornado.web.authenticated
    async def get(self):
        bearer = token()
        user = await fetch_part("", bearer)
        ns = namespace()
        part = None
        # A ServiceAccount's own status already is its namespace's budget.
        own = user.get("status", {}).get("identity", {}) if user.get("ok") else {}
        if ns and not (own.get("scope") == "namespace" and own.get("subject") == ns):
            part = await fetch_part("?namespace=" + quote(ns, safe=""), bearer)
            part["name"] = ns
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"user": user, "namespace": part}))


def setup_handlers(web_app):
    base_url = web_app.settings["base_url"]
    route = url_path_join(base_url, "gpuquota", "status")
    web_app.add_handlers(".*$", [(route, StatusHandler)])
