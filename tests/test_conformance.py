"""pylower against the stored ptxas reference (tests/reference/, made by tools/refresh_reference.py).

Two kinds of assertion: accept/reject agreement and exact sync-family matches may not fall below the
recorded baseline (tests/conformance_baseline.json, per family); raise the baseline when work improves it
(`python -m pylower.tools.conformance --baseline`). The per-family, per-target table is printed with -s.
"""
import hashlib
import json
from pathlib import Path

import pytest

from pylower.tools.conformance import evaluate, kernel_report, kernel_summary, report, summarize

BASELINE = Path(__file__).with_name("conformance_baseline.json")
# A digest of pylower's whole listings (or diagnostics) per corpus file over its targets: behaviour-preserving work
# (refactors, speed) must leave every listing byte-identical; `pytest --update-golden` records a deliberate change.
LISTINGS = Path(__file__).parent / "golden" / "listing_digests.json"


@pytest.fixture(scope="module")
def cases():
    cs = evaluate(jobs=2)
    print("\n" + kernel_report(cs) + "\n\n" + report(cs))
    return cs


def test_reference_exists(cases):
    assert len(cases) > 0


def test_no_family_regresses(cases):
    base = json.loads(BASELINE.read_text())
    tab = summarize(cases)
    problems = []
    for fam, b in base.items():
        n, agree, match = tab.get((fam, "all"), [0, 0, 0])
        if agree < b["accept_agree"]:
            problems.append(f"{fam}: accept/reject agreement {agree} < baseline {b['accept_agree']}")
        if match < b["match"]:
            problems.append(f"{fam}: exact matches {match} < baseline {b['match']}")
    ktab = kernel_summary(cases)
    for fam, b in base.items():
        k = ktab.get((fam, "all"))
        if "kernels_exact" in b and (k is None or k["exact"] < b["kernels_exact"]):
            problems.append(f"{fam}: sync-exact kernels {k and k['exact']} < baseline {b['kernels_exact']}")
        if "kernels_eiattr" in b and (k is None or k["eiattr"] < b["kernels_eiattr"]):
            problems.append(f"{fam}: EIATTR-exact kernels {k and k['eiattr']} < baseline {b['kernels_eiattr']}")
    assert not problems, "\n".join(problems)


def test_listings_unchanged(cases, update_golden):
    per_file: dict = {}
    for c in sorted(cases, key=lambda c: (c.file, c.target)):
        per_file.setdefault(c.file, []).append(f"{c.target}:{c.listing}")
    now = {f: hashlib.sha256(" ".join(v).encode()).hexdigest()[:16] for f, v in per_file.items()}
    if update_golden:
        LISTINGS.write_text(json.dumps(dict(sorted(now.items())), indent=0) + "\n")
        return
    if not LISTINGS.exists():
        pytest.fail(f"missing {LISTINGS.name}: run pytest --update-golden")
    before = json.loads(LISTINGS.read_text())
    changed = sorted(k for k in set(now) | set(before) if now.get(k) != before.get(k))
    assert not changed, (f"{len(changed)} of {len(now)} listings differ from {LISTINGS.name} "
                         "(pytest --update-golden records an intended change): " + ", ".join(changed[:15]))
