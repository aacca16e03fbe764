"""The analysis manager: every analysis of one function computed once, on first use, and kept until a phase
changes what it depends on (LLVM's preserved-analyses idea).

Two groups: the CFG analyses (block map, orders, dominators, post-dominators, loops) depend on the blocks
and edges; the code analyses (def/use, constant registers, liveness, uniformity, divergent regions) also
on the instructions. A phase declares what it keeps valid when it changes a function (`Phase.preserves`:
"all", "analyses", "cfg" or "none"); the pass manager drops the rest after it ran. "analyses" keeps every
analysis but drops the callers' memos (`memo()`), which may read instruction attributes the phase changed. A phase that changes a function
and then wants fresh results itself calls `invalidate()`.
"""
from __future__ import annotations

from pylower.lowering import ori

from .cfg import DomTree, dominators, post_dominators, reverse_postorder
from .constants import constant_registers
from .defuse import DefUse

CFG_ANALYSES = ("blocks", "rpo", "rpo_index", "idom", "dom", "ipdom", "loops")
CODE_ANALYSES = ("defuse", "constants", "liveness", "uniformity", "all_regions", "all_regions_by_join", "regions",
                 "innermost", "region_heads", "region_holders", "region_edges", "shuffle_uniformity")
PRESERVES = ("all", "analyses", "cfg", "none")


class Analyses:
    def __init__(self, fn: ori.Function, module: ori.Module | None = None, target=None):
        self.fn, self.module = fn, module
        self.target = target          # the target code is made for (--arch); None: the module's `.target`
        self._cache: dict[str, object] = {}
        self._defuse_entries: dict[int, tuple] = {}   # DefUse's per-instruction table, kept across invalidations
        self.computed: dict[str, int] = {}        # how often each analysis was computed (tests, --stats)
        # set while a phase edits the code in place and keeps asking (phase 72 expands as it goes): memos that
        # must see those edits (ifconvert.is_kept_region) are not used meanwhile
        self.editing_in_place = False

    def _get(self, key: str, make):
        v = self._cache.get(key)
        if v is None:
            v = self._cache[key] = make()
            self.computed[key] = self.computed.get(key, 0) + 1
        return v

    def invalidate(self, preserves: str = "none") -> None:
        """Drop what a change to the function made stale: with "cfg" kept only the CFG analyses survive."""
        if preserves == "all":
            return
        if preserves == "analyses":
            self._cache = {k: v for k, v in self._cache.items() if not k.startswith("memo:")}
            return
        keep = CFG_ANALYSES if preserves == "cfg" else ()
        self._cache = {k: v for k, v in self._cache.items() if k in keep}

    def memo(self, key: str) -> dict:
        """A dict for a caller's own per-function results, dropped with the code analyses."""
        return self._cache.setdefault("memo:" + key, {})

    # ---- CFG
    @property
    def blocks(self) -> dict[str, ori.BasicBlock]:
        return self._get("blocks", lambda: {b.label: b for b in self.fn.blocks})

    @property
    def rpo(self) -> list[str]:
        return self._get("rpo", lambda: reverse_postorder(self.fn))

    @property
    def rpo_index(self) -> dict[str, int]:
        """Position of each reachable block in reverse postorder."""
        return self._get("rpo_index", lambda: {b: i for i, b in enumerate(self.rpo)})

    @property
    def idom(self) -> dict[str, str]:
        return self._get("idom", lambda: dominators(self.fn))

    @property
    def dom(self) -> DomTree:
        """The dominator tree: `am.dom.dominates(a, b)` in constant time."""
        return self._get("dom", lambda: DomTree(self.idom))

    @property
    def ipdom(self) -> dict[str, str]:
        return self._get("ipdom", lambda: post_dominators(self.fn))

    @property
    def loops(self):
        from .loops import Loops
        return self._get("loops", lambda: Loops(self.fn, self.blocks, self.dom))

    # ---- code
    @property
    def defuse(self) -> DefUse:
        return self._get("defuse", lambda: DefUse(self.fn, self._defuse_entries))

    @property
    def constants(self) -> dict[str, int]:
        return self._get("constants", lambda: constant_registers(self.fn.instructions(), self.defuse.defs))

    @property
    def liveness(self):
        from .liveness import Liveness
        return self._get("liveness", lambda: Liveness(self.fn, self.defuse))

    def target_has(self, feature: str) -> bool | None:
        """Does the target code is made for have this feature (lowering/target.py)? That is --arch when the
        manager was given it: ptxas makes the same code for `-arch=sm_90` from a file whose `.target` is lower
        (docs/known_mismatches.md "A file whose `.target` is below `--arch`"). Else the module's `.target sm_XX`;
        None when the module names no known target (the builder has reported it already). Memoised per feature."""
        if self.target is not None:
            return self.target.has(feature)
        key = "target_has:" + feature
        if key not in self._cache:
            from pylower.lowering.target import parse_target
            name = next((t for t in (self.module.target if self.module else ()) if t.startswith("sm_")), None)
            try:
                self._cache[key] = None if name is None else parse_target(name).has(feature)
            except Exception:               # an unknown target was reported by the builder already
                self._cache[key] = None
        return self._cache[key]

    @property
    def native_match_all(self) -> bool:
        """Is match.all one warp-uniform instruction on the module's target (NATIVE_VOTE_ALL)?"""
        return self.target_has("NATIVE_VOTE_ALL") is True

    @property
    def uniformity(self):
        from .uniformity import Uniformity
        return self._get("uniformity", lambda: Uniformity(self.fn, self.defuse, self.ipdom, self.liveness,
                                                          self.native_match_all))

    @property
    def single_lane(self):
        from .single_lane import SingleLane
        return self._get("single_lane", lambda: SingleLane(self))

    @property
    def all_regions(self):
        """Every divergent branch's region, before the one-pair-per-join rule (regions.all_divergent_regions)."""
        from .regions import all_divergent_regions
        return self._get("all_regions", lambda: all_divergent_regions(self))

    @property
    def all_regions_by_join(self) -> dict:
        """Join label -> the regions of all_regions that join there, in all_regions' order."""
        return self._get("all_regions_by_join", lambda: _grouped(self.all_regions, lambda r: (r.join,)))

    @property
    def regions(self):
        from .regions import divergent_regions
        return self._get("regions", lambda: divergent_regions(self))

    @property
    def active_set_regions(self):
        """The divergent regions plus the arms of each divergent branch whose two sides both end the kernel
        (regions.active_set_regions): where an active-mask read holds for its own active set only."""
        from .regions import active_set_regions
        return self._get("active_set_regions", lambda: active_set_regions(self))

    @property
    def region_heads(self) -> dict:
        """Block label -> the divergent regions headed there, in `regions`' order."""
        return self._get("region_heads", lambda: _grouped(self.regions, lambda r: (r.head,)))

    @property
    def region_holders(self) -> dict:
        """Block label -> the divergent regions whose body holds it, in `regions`' order."""
        return self._get("region_holders", lambda: _grouped(self.regions, lambda r: r.body))

    @property
    def innermost(self) -> dict:
        """Block label -> its innermost divergent region (regions.innermost_map)."""
        from .regions import innermost_map
        return self._get("innermost", lambda: innermost_map(self.regions))

    @property
    def region_edges(self) -> dict:
        """Block label -> the first divergent region (outermost first) that opens (BSSY) or joins there."""
        def make():
            out: dict = {}
            for r in self.regions:
                out.setdefault(r.bssy_block, r)
                out.setdefault(r.join, r)
            return out
        return self._get("region_edges", make)


def _grouped(regions, labels) -> dict:
    """Block label -> the regions `labels(region)` names it for, in the regions' order."""
    out: dict = {}
    for r in regions:
        for label in labels(r):
            out.setdefault(label, []).append(r)
    return out
