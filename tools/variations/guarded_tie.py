"""Two reductions of one loaded row (tools/variations/two_stat_lag.py's block: a sum and a second statistic, each a
local tree of V values, five `shfl.bfly`, `st.shared; bar.sync; ld.shared`, K second-level shuffles) with exactly one
of the V loads guarded as Triton masks it (`setp.lt; mov 0; @p ld`), the others plain: which single guard makes
ptxas issue the second chain's last first-level shuffle after the first exchange barrier (`9 | 1`) instead of
strictly alternating the chains (`10 | 0`). docs/findings/scheduling.md "The one-slot tie follows one guarded
load's position, not a latency; measured, not modelled (helper tslot37, stop 37)". Row names: `<second>_v<V>_k<K>_g<i>` (load i guarded,
1-based; `g0` none, `gall` all V)."""
from __future__ import annotations

import re

from pylower.tools.variations.table import run
from pylower.tools.variations.two_stat_lag import kernel

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a", "sm_120"]


def one_guard(second: str, v: int, k: int, i: int | None) -> str:
    """The guarded kernel with only load `i` (1-based) kept guarded; None: all of them; 0: none."""
    text = kernel(second, v, k, guard=True)
    if i is None:
        return text
    return re.sub(r"@%p(\d+) ld", lambda m: m.group(0) if int(m.group(1)) == i else "ld", text)


def variations() -> dict[str, str]:
    out = {}
    for second in ("sq", "max"):
        for v, k in ((8, 2), (4, 1)):
            for i in range(v + 1):
                out[f"{second}_v{v}_k{k}_g{i}"] = one_guard(second, v, k, i)
            out[f"{second}_v{v}_k{k}_gall"] = one_guard(second, v, k, None)
    return out


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, frozenset({"SHFL", "BAR"})))
