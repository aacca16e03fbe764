"""The mutation fuzzer (tools/fuzz.py): a short run must find nothing, and the same inputs give byte-identical
outcomes across runs and PYTHONHASHSEEDs. The long run is documented in docs/fuzzing.md."""
import os
import subprocess
import sys

from pylower.tools import fuzz


def test_short_run_finds_nothing():
    r = fuzz.fuzz(seed=11, start=0, count=800, timeout=20.0)
    assert not r["failures"], r["failures"]
    assert r["counts"]["ok"] + r["counts"]["rejected"] == 800
    assert r["counts"]["ok"] > 0 and r["counts"]["rejected"] > 0


def test_inputs_are_deterministic():
    seeds = fuzz.seed_files()
    assert fuzz.make_input(5, 123, seeds) == fuzz.make_input(5, 123, seeds)
    assert fuzz.make_input(5, 123, seeds) != fuzz.make_input(5, 124, seeds)


def test_output_identical_across_hash_seeds():
    code = "from pylower.tools.fuzz import fuzz; print(fuzz(seed=3, start=0, count=120, digest=True)['digest'])"
    digests = set()
    for seed in ("0", "1", "4242"):
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed})
        assert p.returncode == 0, p.stderr
        digests.add(p.stdout.strip())
    assert len(digests) == 1
