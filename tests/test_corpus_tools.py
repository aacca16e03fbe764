"""The corpus generators' bookkeeping: tools/corpus_triton.py (Triton kernels -> tests/corpus/triton/*.ptx).

Fast checks on what is on disk (no Triton needed): the configuration list is well-formed, every configuration has
its .ptx with the right provenance line and target and its ptxas reference, and no .ptx is left that no
configuration makes. With the pinned Triton installed, one small configuration is also regenerated and must be
byte-identical (the whole corpus: `python -m pylower.tools.corpus_triton --check`).
"""
import importlib.metadata
import os
import subprocess
import sys
from pathlib import Path

import pytest

import pylower

from pylower.tools import corpus_triton as ct
from pylower.tools.refresh_reference import reference_path

TARGET_OF_CC = {80: "sm_80", 90: "sm_90a", 100: "sm_100a"}


@pytest.fixture(scope="module")
def configs():
    return ct.load_configs()


def test_triton_configs_well_formed(configs):
    assert len(configs) >= 100
    assert ct.validate(configs) == []
    assert {c["cc"] for c in configs} == set(ct.CCS)
    assert {1, 2, 4, 8} <= {c["num_warps"] for c in configs}


def test_triton_validate_finds_problems(configs):
    bad = [dict(configs[0]), dict(configs[0]), dict(configs[0], cc=75), dict(configs[0], src="no_such_module"),
           dict(configs[0], colour="red")]
    errs = ct.validate(bad)
    assert any("duplicate output name" in e for e in errs)
    assert any("cc 75" in e for e in errs)
    assert any("no source" in e for e in errs)
    assert any("unknown keys" in e for e in errs)


def test_triton_corpus_files_and_references(configs):
    problems = []
    names = set()
    for c in configs:
        name = ct.config_name(c)
        names.add(f"{name}.ptx")
        ptx = ct.OUT / f"{name}.ptx"
        if not ptx.is_file():
            problems.append(f"{name}.ptx missing")
            continue
        with ptx.open() as f:
            first = f.readline()
            head = "".join(f.readline() for _ in range(8))
        if first != ct.header(c):
            problems.append(f"{name}.ptx: provenance line {first!r} != {ct.header(c)!r}")
        if f".target {TARGET_OF_CC[c['cc']]}\n" not in head or ".version 9.0\n" not in head:
            problems.append(f"{name}.ptx: not .version 9.0 / .target {TARGET_OF_CC[c['cc']]}")
        if not reference_path(ptx).is_file():
            problems.append(f"{name}.ptx has no reference {reference_path(ptx).name}")
    stray = sorted(p.name for p in ct.OUT.glob("*.ptx") if p.name not in names)
    problems += [f"{s}: no configuration makes it" for s in stray]
    assert not problems, "\n".join(problems[:20])


def test_every_triton_ptx_has_provenance():
    for p in sorted(ct.OUT.glob("*.ptx")):
        with p.open() as f:
            first = f.readline()
        assert first.startswith("// from tests/corpus/triton/src/") and \
            "(python -m pylower.tools.corpus_triton)" in first and f"triton {ct.TRITON_VERSION} " in first, p.name


def test_triton_regenerates_byte_identical(configs):
    # in a child process: the generator's own CLI, and an `import triton` that no test-path entry can shadow
    try:
        version = importlib.metadata.version("triton")
    except importlib.metadata.PackageNotFoundError:
        pytest.skip("triton is not installed")
    if version != ct.TRITON_VERSION:
        pytest.skip(f"corpus pinned to Triton {ct.TRITON_VERSION}, {version} installed")
    c = next(c for c in configs if c["kernel"] == "add_kernel" and c["cc"] == 80)
    env = {k: v for k, v in os.environ.items() if not k.startswith("TRITON_")}
    pkg_parent = str(Path(pylower.__file__).parent.parent)           # where this `pylower` was imported from
    env["PYTHONPATH"] = os.pathsep.join(p for p in (pkg_parent, env.get("PYTHONPATH")) if p)
    p = subprocess.run([sys.executable, "-m", "pylower.tools.corpus_triton", "--check", "-j", "1", ct.config_name(c)],
                       capture_output=True, text=True, env=env, cwd=ct.ROOT)
    assert p.returncode == 0 and "1 up-to-date" in p.stdout, p.stdout + p.stderr
