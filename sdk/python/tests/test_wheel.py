"""The package builds as a wheel (``python -m build``, with the pinned setuptools of the test extras) that installs and works in a fresh virtual environment."""

from __future__ import annotations

import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_wheel_builds_installs_into_a_fresh_venv_and_runs(tmp_path: Path) -> None:
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--wheel", "--no-isolation", "--outdir", str(dist), str(ROOT)], check=True, capture_output=True, timeout=600)
    wheels = list(dist.glob("faultline_sdk-0.1.0-py3-none-any.whl"))
    assert len(wheels) == 1
    names = set(zipfile.ZipFile(wheels[0]).namelist())
    assert {"faultline/py.typed", "faultline/schema/records.json", "faultline/integrations/tenacity.py"} <= names
    assert not any(n.startswith("tests/") for n in names)
    fresh = tmp_path / "fresh"
    venv.create(fresh, with_pip=True)
    python = fresh / "bin" / "python"
    subprocess.run([str(python), "-m", "pip", "install", "--quiet", "--no-index", str(wheels[0])], check=True, timeout=300)
    probe = (
        "import faultline, importlib.resources as r\n"
        "from faultline import ToolRunner, tool, MemorySink\n"
        "@tool\n"
        "def add(a: int, b: int) -> int:\n"
        "    'Adds.'\n"
        "    return a + b\n"
        "sink = MemorySink()\n"
        "with ToolRunner(agent='probe', tools=[add], sink=sink).run() as run:\n"
        "    print(run.call('add', {'a': 1, 'b': 2}).value)\n"
        "print(len(r.files('faultline').joinpath('schema/records.json').read_text()) > 1000, faultline.SDK_NAME)\n"
    )
    out = subprocess.run([str(python), "-c", probe], check=True, capture_output=True, text=True, timeout=120)
    assert out.stdout.split() == ["3", "True", "faultline-python"]
    print(f"wheel {wheels[0].name}: {wheels[0].stat().st_size} bytes")
