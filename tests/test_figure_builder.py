"""The figure builder's processes under `make serve` (scripts/mlnotes_site/figure_builder.py,
plugins/figures.py)."""

from __future__ import annotations

import pytest

# `make serve`'s figure builder process and its warm workers (scripts/mlnotes_site/plugins/figures.py)
# must not outlive the server: the builder ends at the end of its input (the server's pipe),
# but a process pool's worker holds both ends of its task queue, so it would wait for ever
# unless it watched for its parent (figure_builder.warm_worker).
SERVER = """
import json, sys, time
from types import SimpleNamespace
from mlnotes_site.plugins.figures import FiguresPlugin

plugin = FiguresPlugin()
assert plugin.load_config({"jobs": 1}) == ([], [])
plugin.on_startup(command="serve", dirty=True)
plugin.on_pre_build(config=SimpleNamespace(config_file_path=sys.argv[1]))
builder = plugin.builder.process.pid
with open(f"/proc/{builder}/task/{builder}/children") as f:
    children = [int(pid) for pid in f.read().split()]
print("PIDS", json.dumps([builder, *children]), flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_the_serves_figure_builder_and_workers_exit_when_the_server_is_killed(scratch_package):
    import json
    import os
    import signal
    import subprocess
    import sys
    import time

    script = scratch_package / "server.py"
    script.write_text(SERVER)
    server = subprocess.Popen(
        [sys.executable, str(script), str(scratch_package / "mkdocs.yml")],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        line = next(line for line in server.stdout if line.startswith("PIDS "))
        pids = json.loads(line.removeprefix("PIDS "))
        assert len(pids) >= 2, pids  # the builder, and its worker (and its resource tracker)
        for pid in pids:
            os.kill(pid, 0)  # alive while their server is
        server.send_signal(signal.SIGKILL)  # no clean-up in the server: they must notice
        server.wait()
        deadline = time.monotonic() + 60
        alive = set(pids)
        while alive and time.monotonic() < deadline:
            for pid in list(alive):
                try:
                    os.kill(pid, 0)
                except ProcessLookupError:
                    alive.discard(pid)
            time.sleep(0.2)
        for pid in alive:
            os.kill(pid, signal.SIGKILL)
        assert not alive, f"the figure builder's processes {alive} outlived their killed server"
    finally:
        if server.poll() is None:
            server.kill()
