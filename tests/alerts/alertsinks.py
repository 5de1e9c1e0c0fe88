#!/usr/bin/env python3
"""Real receivers for the alert suites: an SMTP server (aiosmtpd) and an HTTP sink.

  alertsinks.py smtp PORT DIR [--tls CERT KEY] [--auth USER:PASSWORD]
  alertsinks.py http PORT DIR

Each received mail is written to DIR/mail-N.eml with DIR/mail-N.json holding the
envelope ({"from", "to": [...], "auth": user or null}); each POST to DIR/post-N.body
with DIR/post-N.json holding {"path", "headers"}. Files appear atomically (written under
a temporary name, then renamed). Prints "ready PORT" once listening. Runs until killed.
"""
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

counter_lock = threading.Lock()
counter = [0]


def write(directory, prefix, payload, meta, ext):
    with counter_lock:
        counter[0] += 1
        n = counter[0]
    for name, data in ((f"{prefix}-{n}.{ext}", payload), (f"{prefix}-{n}.json", json.dumps(meta).encode())):
        tmp = os.path.join(directory, "." + name)
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, os.path.join(directory, name))


def run_smtp(port, directory, args):
    from aiosmtpd.controller import Controller
    from aiosmtpd.smtp import AuthResult, LoginPassword

    tls = None
    credentials = None
    while args:
        opt = args.pop(0)
        if opt == "--tls":
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(args.pop(0), args.pop(0))
        elif opt == "--auth":
            user, _, password = args.pop(0).partition(":")
            credentials = (user.encode(), password.encode())

    class Handler:
        async def handle_DATA(self, server, session, envelope):
            user = session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None
            meta = {"from": envelope.mail_from, "to": envelope.rcpt_tos, "auth": user}
            write(directory, "mail", envelope.original_content or envelope.content, meta, "eml")
            return "250 Message accepted for delivery"

    def authenticator(server, session, envelope, mechanism, auth_data):
        ok = isinstance(auth_data, LoginPassword) and (auth_data.login, auth_data.password) == credentials
        return AuthResult(success=ok, auth_data=auth_data)

    kwargs = {}
    if tls:
        kwargs.update(tls_context=tls, require_starttls=True)
    if credentials:
        kwargs.update(authenticator=authenticator, auth_required=True, auth_require_tls=bool(tls))
    controller = Controller(Handler(), hostname="127.0.0.1", port=port, **kwargs)
    controller.start()
    print(f"ready {port}", flush=True)
    while True:
        time.sleep(3600)


def run_http(port, directory, args):
    # --delay S: answer S seconds after the request was read (and stored): a slow receiver.
    delay = float(args[args.index("--delay") + 1]) if "--delay" in args else 0.0

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            meta = {"path": self.path, "headers": {k.lower(): v for k, v in self.headers.items()}}
            write(directory, "post", body, meta, "body")
            if delay:
                time.sleep(delay)
            self.send_response(200)
            self.send_header("Content-Length", "2")
            self.end_headers()
            self.wfile.write(b"ok")

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    print(f"ready {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    mode, port, directory = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    if mode == "smtp":
        run_smtp(port, directory, sys.argv[4:])
    else:
        run_http(port, directory, sys.argv[4:])
