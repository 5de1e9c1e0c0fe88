"""The controller's self-service API for the frontend, with the notebook's identity:

- ``GET <base_url>/gpuquota/status``: ``/quota/status`` (the user's and the namespace's)
  and ``/quota/boost-requests`` (the user's requests and their decisions);
- ``POST <base_url>/gpuquota/boost-requests``: ``{"hours", "for" | "until", "note"}`` to
  ``POST /quota/boost-requests`` (the user's own budget);
- ``POST <base_url>/gpuquota/boost-requests/withdraw``: ``{"id", "note"}``.

Identity: ``GPUQUOTA_TOKEN``, else the file ``GPUQUOTA_TOKEN_FILE``, else the pod's
ServiceAccount token (read on every request: projected tokens rotate). The controller:
``GPUQUOTA_URL``, else the in-cluster Service. The namespace whose budget is shown beside
the user's: ``GPUQUOTA_NAMESPACE``, else the pod's own (the ServiceAccount's namespace file).

The status answer is always 200 with ``{"user": PART, "namespace": PART|null, "requests":
PART}``, each PART either ``{"ok": true, "status": {...}}`` (``"requests": [...]`` for the
requests) or ``{"ok": false, "code": HTTP|0, "reason": TEXT}``: the frontend shows a failure
as a quiet grey state, never as an error dialog. The POSTs answer 200 with ``{"ok": true,
"request": R}`` or ``{"ok": false, "code": HTTP|0, "reason": TEXT}`` (the controller's
error, e.g. ``note: a note of at least 10 characters ...``). The token is never logged nor
sent to the browser.
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


async def call(method, path, bearer, body=None):
    """One call of the controller: ``{"ok": true, "body": JSON}`` or a failed PART."""
    if not bearer:
        return {"ok": False, "code": 0,
                "reason": "no token: set GPUQUOTA_TOKEN or mount the pod's ServiceAccount token"}
    headers = {"Authorization": "Bearer " + bearer}
    if body is not None:
        headers["Content-Type"] = "application/json"
    request = HTTPRequest(controller_url() + path, method=method, headers=headers,
                          body=None if body is None else json.dumps(body),
                          connect_timeout=TIMEOUT_SECONDS, request_timeout=TIMEOUT_SECONDS,
                          ca_certs=os.environ.get("GPUQUOTA_CA_FILE") or None)
    unreachable = "the controller at %s is not reachable (%s)"
    try:
        response = await AsyncHTTPClient().fetch(request, raise_error=False)
    except (OSError, HTTPClientError) as error:
        return {"ok": False, "code": 0, "reason": unreachable % (controller_url(), error)}
    if response.code == 599:  # no HTTP answer: refused, timed out, TLS
        return {"ok": False, "code": 0, "reason": unreachable % (controller_url(), response.error)}
    text = response.body.decode("utf-8", "replace") if response.body else ""
    if response.code not in (200, 201):
        return {"ok": False, "code": response.code, "reason": _reason(response.code, text)}
    try:
        return {"ok": True, "body": json.loads(text)}
    except ValueError:
        return {"ok": False, "code": response.code, "reason": "the controller's answer is not JSON"}


async def fetch_part(query, bearer):
    """One /quota/status answer as a PART (see the module's text)."""
    answer = await call("GET", "/quota/status" + query, bearer)
    return {"ok": True, "status": answer["body"]} if answer["ok"] else answer


async def fetch_requests(bearer):
    """The caller's boost requests (pending first, then newest) as a PART."""
    answer = await call("GET", "/quota/boost-requests", bearer)
    if not answer["ok"]:
        return answer
    return {"ok": True, "requests": answer["body"].get("requests", [])}


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
        requests = await fetch_requests(bearer)
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps({"user": user, "namespace": part, "requests": requests}))


class RequestHandler(APIHandler):
    """POST a new request, or (``withdraw``) withdraw one: the body goes on as it came,
    only the known keys."""

    def initialize(self, path, keys):
        self.path_ = path
        self.keys = keys

    @tornado.web.authenticated
    async def post(self):
        try:
            given = json.loads(self.request.body or b"{}")
        except ValueError:
            given = None
        self.set_header("Cache-Control", "no-store")
        if not isinstance(given, dict):
            self.finish(json.dumps({"ok": False, "code": 400, "reason": "the body must be a JSON object"}))
            return
        body = {k: v for k, v in given.items() if k in self.keys}
        answer = await call("POST", self.path_, token(), body)
        if answer["ok"]:
            answer = {"ok": True, "request": answer["body"].get("request")}
        self.finish(json.dumps(answer))


def setup_handlers(web_app):
    base_url = web_app.settings["base_url"]
    route = url_path_join(base_url, "gpuquota", "status")
    requests = url_path_join(base_url, "gpuquota", "boost-requests")
    web_app.add_handlers(".*$", [
        (route, StatusHandler),
        (requests, RequestHandler, {"path": "/quota/boost-requests", "keys": ("hours", "for", "until", "note")}),
        (requests + "/withdraw", RequestHandler,
         {"path": "/quota/boost-requests/withdraw", "keys": ("id", "note")})])
