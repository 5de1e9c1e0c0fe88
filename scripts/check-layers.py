#!/usr/bin/env python3
"""The layer rules of README "Layout" that the compiler cannot see, checked on the tree
and on the generated build. Run by ctest as tst_layers (label unit); cheap: it reads
the sources of three folders and one file of the build.

  check-layers.py --source-dir SRC --build-dir BUILD

Exit 0 when every rule holds, 1 with one line per breach ("FILE: RULE: what"), 2 on
bad usage (no build.ninja: the check must not pass by reading nothing).

Why the compiler is not enough: every library sees the headers of the libraries its
dependencies link PUBLIC, so a page could include the usage store through services,
and an executable's links are the sum of its libraries' links, which only the
generated build shows.
"""

import argparse
import importlib.util
import re
import shlex
import sys
from pathlib import Path

# Folders whose files talk to services only: no transport, no database.
UI_DIRS = ("widgets", "models")  # with every feature folder below them

# core/net: the HTTP transport. A page asks through a service (ConnectionProbe,
# GpuMonitor, ClusterConnection), which owns the one transport.
NET_HEADERS = {
    "httptransport.h": "core/net",
    "httptransport_p.h": "core/net",
    "httprequest.h": "core/net",
}

# The usage database's classes (stores, the connection, writers, loaders, queries,
# schema, the audit log and the ledgers that write with it). Value types and pure
# functions of core/usage (budget.h, timewindow.h, forecast.h, boosts.h, ledger.h,
# auditentry.h, auditanchor.h, auditcsv.h, dburl.h, ...) are fine in a page.
DB_HEADERS = {
    "usagestore.h": "core/usage",
    "usageconnection.h": "core/usage",
    "usageschema.h": "core/usage",
    "changemonitor.h": "core/usage",
    "rollupwriter.h": "core/usage",
    "intervalwriter.h": "core/usage",
    "bulkloader.h": "core/usage",
    "bulkstatements.h": "core/usage",
    "pgcopy.h": "core/usage",
    "loadedlibpq.h": "core/usage",
    "driverlibpq.h": "core/usage",
    "intervalqueries.h": "core/usage",
    "chartqueries.h": "core/usage",
    "subjectintervals.h": "core/usage",
    "checkinputs.h": "core/usage",
    "admissionchecker.h": "core/usage",
    "budgetstore.h": "core/usage",
    "budgetedit.h": "core/usage",
    "boostledger.h": "core/usage",
    "boostschema.h": "core/usage",
    "auditlog.h": "core/usage",
    "auditschema.h": "core/usage",
    "auditverifier.h": "core/usage",
    "alertschema.h": "core/usage",
    "usagecsv.h": "core/usage",
    "chargebackquery.h": "core/report",
    "alertledger.h": "core/usage",
}

# The command line is headless and no controller: none of the console's layers, none
# of the controller's library.
CLI_TARGET = "bin/gpuquota"
CLI_FORBIDDEN = ("gqwidgets", "gqmodels", "gqcharts", "gqconsole", "gqcontroller")
# The HTTP server is the controller's: the CLI and the console never link it.
SERVER_FREE_TARGETS = ("bin/gpuquota", "bin/gpuquota-console")
SERVER_LIBS = ("gqhttpd",)
# The demo generators (app/demo) are no part of the controller.
DEMO_FREE_TARGETS = ("bin/gpuquota-controller",)
DEMO_LIBS = ("gqdemo",)

# Which libraries a library's files may include (README "Layout", its "may depend on"
# column), by the include's path from the repository root. A library always sees its
# own headers; tests/, bench/ and fuzz/ see everything.
CORE = {"core/domain", "core/net", "core/kube", "core/metrics", "core/httpd", "core/usage",
        "core/advisor", "core/kueue", "core/report", "core/reportpdf", "core/alerts", "core/jobs",
        "core/quotas", "core/boosts"}
CORE_NO_SERVER = CORE - {"core/httpd"}
CORE_FOR_UI = CORE - {"core/httpd", "core/net"}
ALLOWED = {
    "core/domain": set(),
    "core/net": {"core/domain"},
    "core/kube": {"core/domain", "core/net", "core/jobs"},
    "core/metrics": {"core/domain", "core/net"},
    "core/httpd": {"core/domain"},
    "core/usage": {"core/domain"},
    "core/advisor": {"core/domain"},
    "core/kueue": {"core/domain", "core/kube", "core/net"},
    "core/report": {"core/domain", "core/usage"},
    "core/reportpdf": {"core/domain", "core/usage", "core/report"},
    "core/alerts": {"core/domain", "core/usage", "core/net"},
    "core/jobs": set(),
    "core/quotas": {"core/domain", "core/usage", "core/kube", "core/net"},
    "core/boosts": {"core/domain", "core/usage", "core/kueue", "core/kube", "core/net"},
    "services": CORE_NO_SERVER,
    "services/controller": CORE | {"services"},
    "models": CORE_FOR_UI | {"services"},
    "widgets/charts": CORE_FOR_UI | {"services", "models"},
    "widgets": CORE_FOR_UI | {"services", "models", "widgets/charts"},
    "app/console": CORE_FOR_UI | {"services", "models", "widgets", "widgets/charts", "resources", "app/demo"},
    "app/controller": CORE | {"services", "services/controller"},
    "app/cli": CORE_NO_SERVER | {"services", "app/demo"},
    "app/demo": {"core/domain", "core/usage", "core/metrics", "core/boosts", "core/kueue", "core/kube",
                 "core/net", "resources"},
    "testcluster": {"core/domain", "core/httpd", "core/metrics", "core/net", "resources", "app/demo"},
    "resources": set(),
}
OURS = ("core/", "services/", "models/", "widgets/", "app/", "testcluster/", "resources/",
        "tests/", "bench/", "fuzz/")

# One async idiom (core/jobs: JobTracker, JobToken, JobWait; a UsageLane for the usage
# database): no raw threads, futures, condition variables or nested event loops in the
# production folders, except where a file below says why.
ASYNC_DIRS = ("core", "services", "models", "widgets", "app")
ASYNC_RE = re.compile(r"\b(std::(?:thread|jthread|async|promise|future|shared_future|condition_variable(?:_any)?)"
                      r"|QWaitCondition|QEventLoop|QThread::create)\b")
ASYNC_ALLOWED = {
    "core/jobs/jobtracker.cpp": "JobWait itself: the idiom's own bounded wait (QWaitCondition)",
    "core/httpd/eventserver.cpp": "the HTTP server's epoll loop and its handler pool, no Qt event loop by design",
    "core/kube/credentials.cpp": "the credential plugins' worker: one thread that runs exec plugins on demand",
    "core/net/httptransport.cpp": "libcurl's multi loop on a thread of its own (the one transport)",
    "core/usage/bulkloader.cpp": "std::async gathers a chunk's rollup cells while the next is read; joined by "
    "the next add(), finish() or the destructor",
    "core/usage/usagecsv.cpp": "std::async checks a large CSV ahead of its single-pass load, joined inside the "
    "call",
    "core/usage/rollupwriter.cpp": "std::async orders rollup cells while the next table is written (SQLite) or "
    "the server builds the intervals' keys (PostgreSQL), joined inside the call",
}

RULE_NET = "ui-no-transport"
RULE_DB = "ui-no-usage-database"
RULE_CLI = "cli-links-no-console-or-controller"
RULE_SERVER = "only-the-controller-links-the-server"
RULE_DEMO = "no-demo-generators-in-the-controller"
RULE_LAYER = "include-outside-its-layer"
RULE_CONN = "usage-connection-stays-in-core-usage"

# The usage database's connection is core/usage's own: UsageStore has no public
# connection() (a call does not compile), and its one way out for the stores and ledgers
# of core/usage, storeConnection() (core/usage/storeconnection.h), is checked here.
CONN_RE = re.compile(r"\bstoreConnection\s*\(|#[ \t]*include[ \t]+\"core/usage/storeconnection\.h\"")
CONN_HOME = "core/usage/"
RULE_ASYNC = "one-async-idiom"

INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.MULTILINE)


def include_breaches(src: Path) -> list[str]:
    out = []
    for folder in UI_DIRS:
        base = src / folder
        if not base.is_dir():
            out.append(f"{folder}/: missing folder (the check would read nothing)")
            continue
        for f in sorted(list(base.rglob("*.h")) + list(base.rglob("*.cpp"))):
            rel = f.relative_to(src).as_posix()
            text = f.read_text(encoding="utf-8", errors="replace")
            for m in INCLUDE_RE.finditer(text):
                name = Path(m.group(1)).name
                line = text.count("\n", 0, m.start()) + 1
                if name in NET_HEADERS:
                    out.append(f"{rel}:{line}: {RULE_NET}: includes {NET_HEADERS[name]}/{name}; "
                               f"{folder}/ reaches the network through a service")
                elif name in DB_HEADERS:
                    out.append(f"{rel}:{line}: {RULE_DB}: includes {DB_HEADERS[name]}/{name}; "
                               f"{folder}/ reads the usage database through a service")
    return out


def sources(src: Path, folders: tuple[str, ...]):
    """(path from the repository root, text) of every .h and .cpp below `folders`."""
    for folder in folders:
        base = src / folder
        if not base.is_dir():
            continue
        for f in sorted(list(base.rglob("*.h")) + list(base.rglob("*.cpp"))):
            yield f.relative_to(src).as_posix(), f.read_text(encoding="utf-8", errors="replace")


def connection_breaches(src: Path) -> list[str]:
    out = []
    for rel, text in sources(src, ("core", "services", "models", "widgets", "app", "testcluster")):
        if rel.startswith(CONN_HOME):
            continue
        for m in CONN_RE.finditer(text):
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"{rel}:{line}: {RULE_CONN}: reaches the usage store's connection; "
                       f"ask the UsageStore (transaction(), boostStore(), a ledger that takes the store)")
    return out


def library_of(path: str) -> str | None:
    """The library a repository path belongs to (a key of ALLOWED), None for tests etc."""
    parts = path.split("/")
    if len(parts) < 2:
        return None
    if parts[0] == "core":
        return f"core/{parts[1]}"
    if parts[0] == "services":
        return "services/controller" if parts[1] == "controller" else "services"
    if parts[0] == "widgets":
        return "widgets/charts" if parts[1] == "charts" else "widgets"
    if parts[0] == "app":
        return f"app/{parts[1]}"
    return parts[0] if parts[0] in ALLOWED else None


def layer_breaches(src: Path) -> list[str]:
    out = []
    for rel, text in sources(src, ("core", "services", "models", "widgets", "app", "testcluster", "resources")):
        own = library_of(rel)
        if own is None or own not in ALLOWED:
            continue
        for m in INCLUDE_RE.finditer(text):
            written = m.group(1)
            if not written.startswith(OURS):
                continue
            target = library_of(written)
            if target == own or target in ALLOWED[own]:
                continue
            line = text.count("\n", 0, m.start()) + 1
            out.append(f"{rel}:{line}: {RULE_LAYER}: {own}/ includes {written}; it may include "
                       f"{', '.join(sorted(ALLOWED[own])) or 'nothing of ours'}")
    return out


def async_breaches(src: Path) -> list[str]:
    """Raw threads and their synchronisation outside core/jobs and the allow-list; an
    allow-list entry whose file no longer needs it is a breach too (the list stays true)."""
    out = []
    for folder in ASYNC_DIRS:
        base = src / folder
        if not base.is_dir():
            continue
        for f in sorted(list(base.rglob("*.h")) + list(base.rglob("*.cpp"))):
            rel = f.relative_to(src).as_posix()
            text = f.read_text(encoding="utf-8", errors="replace")
            code = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
            code = re.sub(r"//[^\n]*", "", code)
            hits = list(ASYNC_RE.finditer(code))
            if rel in ASYNC_ALLOWED:
                if not hits:
                    out.append(f"{rel}: {RULE_ASYNC}: allowed ({ASYNC_ALLOWED[rel]}) but uses none: "
                               "drop it from ASYNC_ALLOWED")
                continue
            for m in hits:
                line = code.count("\n", 0, m.start()) + 1
                out.append(f"{rel}:{line}: {RULE_ASYNC}: {m.group(1)}; hand the work to core/jobs "
                           "(JobTracker run/runOn, a UsageLane, JobWait) or allow the file in "
                           "check-layers.py with the reason")
    return out


def qualified_include_breaches(src: Path) -> list[str]:
    """Every include of one of our headers names its path from the repository root
    (scripts/qualify-includes.py, which also rewrites them)."""
    spec = importlib.util.spec_from_file_location(
        "qualify_includes", Path(__file__).with_name("qualify-includes.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.bare_includes(src)


def link_libraries(ninja_text: str, target: str) -> list[str] | None:
    """The libraries the generated build links into `target`, transitive ones included
    (CMake writes the whole list); None when the build has no such target."""
    lines = ninja_text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"build {target}:"):
            for follow in lines[i + 1:]:
                if not follow.startswith("  "):
                    break
                key, _, value = follow.strip().partition(" = ")
                if key == "LINK_LIBRARIES":
                    return shlex.split(value)
            return []
    return None


def library_name(path: str) -> str:
    name = Path(path).name
    m = re.match(r"lib(.+?)\.(a|so)(\..*)?$", name)
    return m.group(1) if m else name


def link_breaches(build: Path) -> list[str]:
    ninja = build / "build.ninja"
    text = ninja.read_text(encoding="utf-8", errors="replace")
    out = []
    rules = [(CLI_TARGET, CLI_FORBIDDEN, RULE_CLI)] + [(t, SERVER_LIBS, RULE_SERVER) for t in SERVER_FREE_TARGETS]
    rules += [(t, DEMO_LIBS, RULE_DEMO) for t in DEMO_FREE_TARGETS]
    for target, forbidden, rule in rules:
        libs = link_libraries(text, target)
        if libs is None:
            if target == CLI_TARGET:
                out.append(f"{ninja}: {rule}: no target {target} in the build (the check would read nothing)")
            continue  # the console is not built without the GUI
        for lib in sorted({library_name(l) for l in libs} & set(forbidden)):
            out.append(f"{target} ({ninja.name}): {rule}: links {lib}")
    return out


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--source-dir", type=Path, required=True)
    p.add_argument("--build-dir", type=Path, required=True)
    a = p.parse_args(argv)
    if not (a.build_dir / "build.ninja").is_file():
        print(f"check-layers: no build.ninja in {a.build_dir} (configure with a Ninja preset first)",
              file=sys.stderr)
        return 2
    breaches = (include_breaches(a.source_dir) + layer_breaches(a.source_dir)
                + connection_breaches(a.source_dir)
                + async_breaches(a.source_dir)
                + qualified_include_breaches(a.source_dir)
                + link_breaches(a.build_dir))
    for b in breaches:
        print(b)
    if breaches:
        print(f"check-layers: {len(breaches)} layer rule(s) broken; see README, \"Layout\"", file=sys.stderr)
        return 1
    print("check-layers: all layer rules hold")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
