#!/usr/bin/env python3
"""Drives JupyterLab in the system's headless Chromium for tst_jupyterlab.

    drive.py LAB_URL          (LAB_URL: http://127.0.0.1:PORT/lab/tree/NOTEBOOK?token=T)

One command a line on stdin, one JSON line on stdout ({"ok": true, ...} or
{"ok": false, "error": ...}):
    open LANG       a new browser profile in LANG (en-GB, zh-CN), the notebook and the
                    GPU quota panel open
    state           the panel, the status-bar item and the notifications shown
    asked           how many times this page asked <base>/gpuquota/status so far
    run             runs the notebook's cells and waits until the kernel is idle again
    reload          reloads the page (the same profile: localStorage stays)
    request JSON    fills the panel's "Request a boost" form ({"hours", "for", "note"}),
                    sends it and waits for its answer (the message or a field's error)
    withdraw JSON   withdraws the panel's request {"id"} with {"note"} and waits for the
                    list to change or an error
    size W H        the window's size
    shot PATH       a screenshot of the window
    quit
Playwright drives the browser; it downloads none: /usr/bin/chromium (GQ_CHROMIUM).
"""

import json
import os
import sys
import traceback

from playwright.sync_api import sync_playwright

TIMEOUT_MS = 120000  # a busy CI machine: JupyterLab loads slowly beside other suites

STATE_JS = """() => {
  const part = sel => {
    const e = document.querySelector(sel);
    if (!e) return null;
    const q = c => (e.querySelector(c) || {}).textContent || '';
    return {state: e.dataset.state || '', text: q('.gq-text'), label: q('.gq-label'),
            note: q('.gq-note'), title: e.title || '', hidden: e.hidden,
            colour: getComputedStyle(e.querySelector('.gq-line') || e).color};
  };
  const toasts = [...document.querySelectorAll('.Toastify__toast')].map(t => t.textContent);
  return {user: part('#gpuquota-panel .gq-user'), namespace: part('#gpuquota-panel .gq-namespace'),
          status: part('#gpuquota-statusbar'),
          statusText: (document.querySelector('#gpuquota-statusbar') || {}).textContent || '',
          updated: (document.querySelector('#gpuquota-panel .gq-updated') || {}).textContent || '',
          newcomer: (document.querySelector('#gpuquota-panel .gq-user .gq-newcomer') || {}).textContent || '',
          requests: [...document.querySelectorAll('#gpuquota-panel .gq-request')].map(r => ({
            id: Number(r.dataset.id), state: r.dataset.state,
            badge: (r.querySelector('.gq-badge') || {}).textContent || '',
            text: (r.querySelector('.gq-request-what') || {}).textContent || '',
            decision: (r.querySelector('.gq-decision') || {}).textContent || '',
            withdraw: !!r.querySelector('.gq-withdraw-start')})),
          requestsNote: (document.querySelector('#gpuquota-panel .gq-request-empty') || {}).textContent || '',
          toasts};
}"""

FORM_JS = """() => {
  const q = s => document.querySelector('#gpuquota-panel ' + s);
  const errors = {};
  document.querySelectorAll('#gpuquota-panel .gq-request-form .gq-field-error').forEach(e => {
    if (!e.hidden) errors[e.dataset.field] = e.textContent;
  });
  return {message: q('.gq-form-message').textContent, kind: q('.gq-form-message').dataset.kind || '',
          errors, sending: q('.gq-send').disabled};
}"""

RUN_JS = """async () => {
  const app = window.jupyterapp;
  await app.commands.execute('notebook:run-all-cells');
}"""


class Driver:
    def __init__(self, url):
        self.url = url
        self.pw = sync_playwright().start()
        self.browser = self.pw.chromium.launch(
            executable_path=os.environ.get("GQ_CHROMIUM", "/usr/bin/chromium"),
            args=["--no-sandbox", "--disable-gpu"], headless=True)
        self.context = None
        self.page = None

    def open(self, lang):
        if self.context:
            self.context.close()
        self.context = self.browser.new_context(locale=lang, viewport={"width": 1280, "height": 720},
                                                extra_http_headers={"Accept-Language": lang})
        self.context.set_default_timeout(TIMEOUT_MS)
        self.page = self.context.new_page()
        self.asked = 0
        self.page.on("requestfinished", self.count)
        self.load()
        return {}

    def load(self):
        self.page.goto(self.url)
        self.page.wait_for_selector("#gpuquota-panel", state="attached")
        self.page.wait_for_selector(".jp-Notebook .jp-Cell")
        # The panel's tab in the right sidebar.
        tab = self.page.locator('.jp-SideBar.jp-mod-right li[data-id="gpuquota-panel"]')
        if tab.get_attribute("aria-selected") != "true":
            tab.click()
        self.page.wait_for_selector("#gpuquota-panel .gq-user[data-state]")
        self.page.wait_for_function("() => window.jupyterapp && window.jupyterapp.shell.currentWidget"
                                    " && window.jupyterapp.shell.currentWidget.sessionContext"
                                    " && window.jupyterapp.shell.currentWidget.sessionContext.session"
                                    " && window.jupyterapp.shell.currentWidget.sessionContext.session.kernel")

    def count(self, request):
        if "/gpuquota/status" in request.url:
            self.asked += 1

    def state(self):
        return self.page.evaluate(STATE_JS)

    def run(self):
        self.page.evaluate(RUN_JS)
        self.page.wait_for_function(
            "() => window.jupyterapp.shell.currentWidget.sessionContext.session.kernel.status === 'idle'")
        return {}

    def request(self, arg):
        given = json.loads(arg)
        panel = "#gpuquota-panel "
        self.page.fill(panel + ".gq-hours", str(given.get("hours", "")))
        self.page.select_option(panel + ".gq-for", given.get("for", "1d"))
        self.page.fill(panel + ".gq-note-input", given.get("note", ""))
        self.page.click(panel + ".gq-send")
        self.page.wait_for_function(
            "() => { const m = document.querySelector('#gpuquota-panel .gq-form-message');"
            " const e = [...document.querySelectorAll('#gpuquota-panel .gq-request-form .gq-field-error')]"
            ".some(x => !x.hidden);"
            " return !document.querySelector('#gpuquota-panel .gq-send').disabled && (m.textContent || e); }")
        return self.page.evaluate(FORM_JS)

    def withdraw(self, arg):
        given = json.loads(arg)
        item = self.page.locator('#gpuquota-panel .gq-request[data-id="%d"]' % given["id"])
        if item.locator(".gq-withdraw-start").is_visible():  # else open from a refused try
            item.locator(".gq-withdraw-start").click()
        item.locator(".gq-withdraw-note").fill(given.get("note", ""))
        item.locator(".gq-withdraw-confirm").click()
        self.page.wait_for_function(
            "(id) => { const r = document.querySelector('#gpuquota-panel .gq-request[data-id=\"' + id + '\"]');"
            " return r && (r.dataset.state !== 'pending' ||"
            " [...r.querySelectorAll('.gq-field-error')].some(e => !e.hidden)); }", arg=given["id"])
        item = self.page.locator('#gpuquota-panel .gq-request[data-id="%d"]' % given["id"])
        return {"state": item.get_attribute("data-state"),
                "error": item.locator(".gq-field-error").text_content() if item.get_attribute("data-state") == "pending"
                else ""}

    def reload(self):
        self.load()
        return {}

    def shot(self, path):
        self.page.wait_for_timeout(1500)  # a notification slides in
        self.page.screenshot(path=path)
        return {}

    def close(self):
        try:
            if self.context:
                self.context.close()
            self.browser.close()
        finally:
            self.pw.stop()


def main():
    driver = Driver(sys.argv[1])
    print(json.dumps({"ok": True, "ready": True}), flush=True)
    try:
        for line in sys.stdin:
            command, _, arg = line.strip().partition(" ")
            if command == "quit":
                break
            try:
                if command == "open":
                    answer = driver.open(arg or "en-GB")
                elif command == "state":
                    answer = driver.state()
                elif command == "asked":
                    driver.page.wait_for_timeout(100)  # let finished requests' events arrive
                    answer = {"asked": driver.asked}
                elif command == "run":
                    answer = driver.run()
                elif command == "reload":
                    answer = driver.reload()
                elif command == "request":
                    answer = driver.request(arg)
                elif command == "withdraw":
                    answer = driver.withdraw(arg)
                elif command == "size":
                    w, h = arg.split()
                    driver.page.set_viewport_size({"width": int(w), "height": int(h)})
                    answer = {}
                elif command == "shot":
                    answer = driver.shot(arg)
                else:
                    raise ValueError("unknown command: " + command)
                answer["ok"] = True
            except Exception as error:  # the test prints it and fails
                answer = {"ok": False, "error": "%s\n%s" % (error, traceback.format_exc())}
            print(json.dumps(answer), flush=True)
    finally:
        driver.close()


if __name__ == "__main__":
    main()
