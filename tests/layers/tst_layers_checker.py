#!/usr/bin/env python3
"""The layer check must catch what it is there for. On a copy of the pages' and models'
sources and of the generated build.ninja it first passes (the tree as it is), then
fails, naming the file and the rule, once a page includes the HTTP transport, a model
includes the usage store, an include of ours does not name its path from the repository
root, a service starts a raw thread or a page a nested event loop, the CLI links the
console's widgets and the controller, the console links the HTTP server, and code
outside core/usage reaches the usage store's connection.

  tst_layers_checker.py --checker scripts/check-layers.py --source-dir SRC --build-dir BUILD
"""

import argparse
import shutil
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ARGS = None


def run(checker: Path, src: Path, build: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(checker), "--source-dir", str(src), "--build-dir", str(build)],
                          capture_output=True, text=True, timeout=60)


def inject_include(path: Path, header: str) -> int:
    """Adds `#include "header"` after the file's first line; returns its line number."""
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    lines.insert(1, f'#include "{header}"\n')
    path.write_text("".join(lines), encoding="utf-8")
    return 2


def inject_link(ninja: Path, target: str, libs: list[str]) -> None:
    lines = ninja.read_text(encoding="utf-8").splitlines(keepends=True)
    start = next(i for i, l in enumerate(lines) if l.startswith(f"build {target}:"))
    for i in range(start + 1, len(lines)):
        if lines[i].startswith("  LINK_LIBRARIES = "):
            lines[i] = "  LINK_LIBRARIES = " + " ".join(libs) + " " + lines[i][len("  LINK_LIBRARIES = "):]
            break
    else:
        raise AssertionError(f"no LINK_LIBRARIES for {target}")
    ninja.write_text("".join(lines), encoding="utf-8")


class LayerCheckerTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        root = Path(self.tmp.name)
        self.src, self.build = root / "src", root / "build"
        for folder in ("widgets", "models"):  # with every feature folder below them
            for f in sorted((ARGS.source_dir / folder).rglob("*")):
                if f.suffix in (".h", ".cpp"):
                    dest = self.src / f.relative_to(ARGS.source_dir)
                    dest.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copy(f, dest)
        self.build.mkdir()
        shutil.copy(ARGS.build_dir / "build.ninja", self.build / "build.ninja")

    def tearDown(self):
        self.tmp.cleanup()

    def test_the_tree_as_it_is_passes(self):
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_page_including_the_transport_fails(self):
        line = inject_include(self.src / "widgets/connections/controllerindicator.cpp", "core/net/httptransport.h")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f"widgets/connections/controllerindicator.cpp:{line}: ui-no-transport: includes core/net/httptransport.h",
                      r.stdout)

    def test_a_model_or_chart_including_the_store_fails(self):
        line = inject_include(self.src / "models/chargeback/chargebackmodel.h", "core/usage/usagestore.h")
        inject_include(self.src / "widgets/charts/usagechart.cpp", "core/usage/auditlog.h")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f"models/chargeback/chargebackmodel.h:{line}: ui-no-usage-database: includes core/usage/usagestore.h",
                      r.stdout)
        self.assertIn("widgets/charts/usagechart.cpp:2: ui-no-usage-database: includes core/usage/auditlog.h",
                      r.stdout)

    def test_a_value_type_of_usage_passes(self):
        inject_include(self.src / "widgets/chargeback/chargebackpage.cpp", "core/usage/budget.h")
        inject_include(self.src / "models/audit/auditmodel.h", "core/usage/auditentry.h")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)

    def test_a_bare_include_of_ours_fails(self):
        line = inject_include(self.src / "widgets/quotas/namespacepanel.cpp", "chargebackmodel.h")
        inject_include(self.src / "models/audit/auditmodel.cpp", "../chargeback/chargebackmodel.h")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f'widgets/quotas/namespacepanel.cpp:{line}: include-by-repository-path: '
                      f'"chargebackmodel.h" is written "models/chargeback/chargebackmodel.h"', r.stdout)
        self.assertIn('models/audit/auditmodel.cpp:2: include-by-repository-path: '
                      '"../chargeback/chargebackmodel.h" is written "models/chargeback/chargebackmodel.h"',
                      r.stdout)

    def test_an_include_from_a_higher_layer_fails(self):
        line = inject_include(self.src / "models/audit/auditmodel.h", "widgets/common/pageinterface.h")
        inject_include(self.src / "widgets/charts/usagechart.cpp", "widgets/quotas/quotapage.h")
        core = self.src / "core/domain/leak.cpp"
        core.parent.mkdir(parents=True)
        core.write_text('// a core file\n#include "services/quotas/quotawriter.h"\n', encoding="utf-8")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn(f"models/audit/auditmodel.h:{line}: include-outside-its-layer: models/ includes "
                      "widgets/common/pageinterface.h", r.stdout)
        self.assertIn("widgets/charts/usagechart.cpp:2: include-outside-its-layer: widgets/charts/ includes "
                      "widgets/quotas/quotapage.h", r.stdout)
        self.assertIn("core/domain/leak.cpp:2: include-outside-its-layer: core/domain/ includes "
                      "services/quotas/quotawriter.h; it may include nothing of ours", r.stdout)

    def test_the_usage_connection_outside_core_usage_fails(self):
        service = self.src / "services/boosts/leak.cpp"
        service.parent.mkdir(parents=True)
        service.write_text('// a service\n#include "core/usage/storeconnection.h"\n'
                           "void f(UsageStore &s) { UsageTx tx(gq::storeConnection(s)); }\n", encoding="utf-8")
        inside = self.src / "core/usage/part.cpp"
        inside.parent.mkdir(parents=True)
        inside.write_text('#include "core/usage/storeconnection.h"\n'
                          "void g(UsageStore &s) { UsageTx tx(storeConnection(s)); }\n", encoding="utf-8")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("services/boosts/leak.cpp:2: usage-connection-stays-in-core-usage:", r.stdout)
        self.assertIn("services/boosts/leak.cpp:3: usage-connection-stays-in-core-usage:", r.stdout)
        self.assertNotIn("core/usage/part.cpp", r.stdout)
    def test_a_raw_thread_outside_the_one_idiom_fails(self):
        leak = self.src / "services/controller/leak.cpp"
        leak.parent.mkdir(parents=True)
        leak.write_text("// std::thread in a comment is prose\n#include <thread>\nvoid f() {\n"
                        "    std::thread t([] {});\n    t.join();\n}\n", encoding="utf-8")
        wait = self.src / "widgets/boosts/leak.cpp"
        wait.write_text("void g() {\n    QEventLoop loop;\n    loop.exec();\n}\n", encoding="utf-8")
        allowed = self.src / "core/httpd/eventserver.cpp"  # on the allow-list, with its reason
        allowed.parent.mkdir(parents=True)
        allowed.write_text("std::thread loopThread;\n", encoding="utf-8")
        stale = self.src / "core/kube/credentials.cpp"  # allowed, but no longer needs it
        stale.parent.mkdir(parents=True)
        stale.write_text("// std::thread was here\nint x;\n", encoding="utf-8")
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("services/controller/leak.cpp:4: one-async-idiom: std::thread;", r.stdout)
        self.assertNotIn("services/controller/leak.cpp:1:", r.stdout)
        self.assertIn("widgets/boosts/leak.cpp:2: one-async-idiom: QEventLoop;", r.stdout)
        self.assertNotIn("core/httpd/eventserver.cpp", r.stdout)
        self.assertIn("core/kube/credentials.cpp: one-async-idiom: allowed", r.stdout)

    def test_the_cli_linking_widgets_or_the_controller_fails(self):
        inject_link(self.build / "build.ninja", "bin/gpuquota",
                    ["widgets/libgqwidgets.a", "services/controller/libgqcontroller.a"])
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("bin/gpuquota (build.ninja): cli-links-no-console-or-controller: links gqwidgets", r.stdout)
        self.assertIn("bin/gpuquota (build.ninja): cli-links-no-console-or-controller: links gqcontroller", r.stdout)

    def test_the_console_linking_the_server_fails(self):
        inject_link(self.build / "build.ninja", "bin/gpuquota-console", ["core/httpd/libgqhttpd.a"])
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("bin/gpuquota-console (build.ninja): only-the-controller-links-the-server: links gqhttpd",
                      r.stdout)

    def test_the_controller_linking_the_demo_generators_fails(self):
        inject_link(self.build / "build.ninja", "bin/gpuquota-controller", ["app/demo/libgqdemo.a"])
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 1, r.stdout + r.stderr)
        self.assertIn("bin/gpuquota-controller (build.ninja): no-demo-generators-in-the-controller: links gqdemo",
                      r.stdout)

    def test_no_build_is_an_error_not_a_pass(self):
        (self.build / "build.ninja").unlink()
        r = run(ARGS.checker, self.src, self.build)
        self.assertEqual(r.returncode, 2, r.stdout + r.stderr)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--checker", type=Path, required=True)
    p.add_argument("--source-dir", type=Path, required=True)
    p.add_argument("--build-dir", type=Path, required=True)
    ARGS, rest = p.parse_known_args()
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
