"""Every knob pylower reads (`--knob NAME=VALUE`), declared once with its default and what it does; and the
-O level from which the sync phases optimize. Phases list the knobs that gate them (Phase.knobs)."""
from __future__ import annotations

from pylower.records import record

# The -O level from which ptxas optimizes sync instructions (phase 71) and unrolls loops (findings 1, 3).
OPT_SYNC_FROM = 1


@record(frozen=True)
class Knob:
    name: str
    default: int
    doc: str


KNOBS: dict[str, Knob] = {k.name: k for k in (
    Knob("487", 1, "master gate of phases 25, 71 and 72 (seed 'Knobs and Gating'); 0 turns them off"),
    Knob("358", 0, "phase 26 mode: 0 none (ptxas 13.0.88), 1 conservative, 2 aggressive, 3 multi-function"),
    Knob("472", 0, "phase 26 barrier liveness: 0 across the CFG, 1 within a basic block"),
    Knob("StageAndFenceMerge", 0, "phase 25 merges adjacent fences (pylower's; ptxas 13.0.88 does not)"),
    Knob("DisableErrbarAfterMembar", 0, "drop the ERRBAR/CGAERRBAR after a MEMBAR in every fence sequence"),
    Knob("Schedule", 1, "list-schedule each block after ISel as ptxas's scheduler orders it (isel/schedule.py; "
         "pylower's); 0 keeps PTX order"),
    Knob("ScheduleBssy", 1, "1: the BSSY before a region's branch is a unit of the list scheduler (isel/schedule.py "
         "BSSY_SCHEDULED; pylower's, docs/findings/scheduling.md \"The BSSY is a unit of its block's list scheduler "
         "(helper bssy28, stop 28)\"; every target, from sm_90 at a join only after a warp collective: "
         "BSSY_SCHEDULED_AT_JOIN, JOIN_BSSY_AFTER_COLLECTIVE); 0 places it after scheduling "
         "(fam_sync_pseudo.place_convergence_barriers)"),
)}
SYNC_GATE_KNOB = "487"


def sync_gate_open(ctx) -> bool:
    """Knob 487, the seed's master gate of phases 25, 71 and 72 (default on)."""
    return ctx.knob(SYNC_GATE_KNOB) != 0


def check_knobs(knobs: dict) -> None:
    """An unknown knob name is an error (a typo would otherwise change nothing, silently)."""
    from pylower.lowering.diagnostics import PtxError
    for name in knobs:
        if name not in KNOBS:
            raise PtxError(f"Unknown knob '{name}' (known: {', '.join(KNOBS)})")


def knob_value(knobs: dict, name: str) -> int:
    """A declared knob's value from a --knob dictionary, else its default."""
    return int(knobs.get(name, KNOBS[name].default))
