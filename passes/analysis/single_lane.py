"""Code ptxas knows at most one lane of a warp runs: under `if (threadIdx.x == 0)`, `if (laneid == leader)`,
an elect.sync predicate. ptxas does not warp-aggregate an atomic there (docs/findings/atomic.md 3.6; probes
atomic/single_lane_*).

What ptxas recognises (ptxas 13.0.88, every target) is a setp.eq/ne whose one side identifies a lane:
* `%laneid` itself (through movs) compared with any warp-uniform value (an immediate, a parameter, %ctaid,
  a value computed from activemask, a load from a uniform address, a redux.sync result);
* `%tid.x` or `%laneid`, alone or as the added (or subtracted) term of an add/sub/mad whose other terms are
  warp-uniform (`ctaid.x * ntid.x + tid.x`), compared with a constant: an immediate or a kernel parameter.
`tid.x == ctaid.x` or `tid.x == param + 1` are not recognised (the atomic is aggregated), nor are %tid.y/z,
`tid.x & 31`, shifts, multiplies, xor or widening conversions of the index, nor range tests (`tid.x < 1`).
"""
from __future__ import annotations

from pylower.lowering import ori
from pylower.lowering import ptx_ast as A

from .cfg import dominates
from .uniformity import linear_block

_LANE, _TID = "%laneid", "%tid.x"
_PURE = frozenset({"setp", "and", "or", "xor", "not", "mov", "selp"})     # dead when nothing reads them
_ADDITIVE = {"add": (1, 2), "sub": (1, 2), "mad": (3,)}     # operands that are added terms


class SingleLane:
    def __init__(self, am):
        self.am = am
        self.du = am.defuse
        self.uni = am.uniformity
        self.consts = am.constants
        self._read_counts: dict[str, int] | None = None
        self._elect_only = False
        self.blocks = self._blocks()
        self._elected: set[str] | None = None

    # ---- values
    def _only_def(self, o) -> ori.Instr | None:
        if type(o) is not A.Reg:
            return None
        ds = self.du.definitions(o.name)
        return ds[0] if len(ds) == 1 and ds[0].guard is None else None

    def _index(self, o, depth: int = 0) -> str | None:
        """"lane" for %laneid (through movs), "index" for %tid.x or an add/sub/mad adding %laneid or %tid.x
        to warp-uniform terms, else None."""
        if type(o) is A.Reg and o.name in (_LANE, _TID):
            return "lane" if o.name == _LANE else "index"
        d = self._only_def(o)
        if d is None or depth > 8:
            return None
        if d.opcode == "mov" and len(d.operands) == 2:
            return self._index(d.operands[1], depth + 1)
        terms = _ADDITIVE.get(d.opcode)
        if terms is None or d.opcode == "mad" and not d.has(".lo") or len(d.operands) <= max(terms):
            return None
        found = [k for k in terms if self._index(d.operands[k], depth + 1) is not None]
        rest = [o for k, o in enumerate(d.operands[1:], 1) if k not in found]
        if len(found) == 1 and all(self.uni.is_uniform(x) for x in rest):
            return "index"
        return None

    def _constant(self, o) -> bool:
        if type(o) is A.Imm or type(o) is A.Reg and o.name in self.consts:
            return True
        d = self._only_def(o)
        return d is not None and (d.opcode == "ld" and d.has(".param") or
                                  d.opcode == "mov" and len(d.operands) == 2 and self._constant(d.operands[1]))

    def one_lane_when(self, pred: str, depth: int = 0) -> bool | None:
        """True if at most one lane has `pred` true, False if at most one has it false, else None."""
        d = self._only_def(A.Reg(pred))
        if d is None or depth > 8:
            return None
        if d.opcode == "not" and len(d.operands) == 2 and type(d.operands[1]) is A.Reg:
            v = self.one_lane_when(d.operands[1].name, depth + 1)
            return None if v is None else not v
        if d.opcode == "elect" and type(d.operands[0]) is A.Pair and type(d.operands[0].second) is A.Reg \
                and d.operands[0].second.name == pred:
            return True
        if self._elect_only and d.opcode == "or" and len(d.operands) == 3 \
                and all(type(o) is A.Reg for o in d.operands[1:]):
            # false only where both are: in at most one lane when either is false in at most one
            if any(self.one_lane_when(o.name, depth + 1) is False for o in d.operands[1:]):
                return False
            return None
        if self._elect_only and d.opcode != "elect":
            flags = [f for x, k in ((d.operands[1], d.operands[2]), (d.operands[2], d.operands[1]))
                     if d.opcode == "setp" and d.has(".eq", ".ne") and len(d.operands) >= 3
                     and (f := self._flag_of_one_lane(x, k)) is not None] if len(d.operands) >= 3 else []
            return flags[0] == d.has(".eq") if flags else None
        if d.opcode == "and" and len(d.operands) == 3 and all(type(o) is A.Reg for o in d.operands[1:]):
            a, b = d.operands[1], d.operands[2]
            return True if self._kept_lane_test(a) and self._folded_compare(b) \
                or self._kept_lane_test(b) and self._folded_compare(a) else None
        if d.opcode != "setp" or not d.has(".eq", ".ne") or len(d.operands) < 3 or type(d.operands[0]) is not A.Reg:
            return None
        a, b = d.operands[1], d.operands[2]
        for x, k in ((a, b), (b, a)):
            flag = self._flag_of_one_lane(x, k)
            if flag is not None:
                return flag == d.has(".eq")
        for x, k in ((a, b), (b, a)):
            kind = self._index(x)
            if kind == "lane" and self._same_in_lanes(k) or kind is not None and self._constant(k):
                return d.has(".eq")
        return None

    def _same_in_lanes(self, o, depth: int = 0) -> bool:
        """Warp-uniform, or the same in every lane that computes it: a match.any.sync of a warp-uniform value
        (every active lane gets the one group, the active mask) and bit operations on it (brev, bfind, popc:
        the group's leader `bfind(brev(m))`; probes atomic/single_lane_match_*; nvcc/
        cuda_pipeline_producer_consumer pipeline_unified_dot; docs/findings/atomic.md "A lane test against a
        match.any leader (helper isel, stop 23)")."""
        if self.uni.is_uniform(o):
            return True
        d = self._only_def(o)
        if d is None or depth > 8 or len(d.operands) < 2:
            return False
        if d.opcode == "match" and d.has(".any"):     # sm_90+ (below, the atomic is still aggregated)
            return self._match_group_feature() and self.uni.is_uniform(d.operands[1])
        if d.opcode in ("brev", "bfind", "popc", "mov", "not"):
            return all(self._same_in_lanes(x, depth + 1) for x in d.operands[1:] if type(x) is A.Reg)
        return False

    def _match_group_feature(self) -> bool:
        return self.am.target_has("MATCH_GROUP_LEADER_ONE_LANE") is True

    def _readers(self, reg: str) -> int:
        """How many instructions of the function read `reg`."""
        if self._read_counts is None:
            live = [i for b in self.am.fn.blocks for i in b.instrs]
            while True:                   # drop pure instructions whose results nothing reads (ptxas does)
                counts: dict[str, int] = {}
                for ins in live:
                    for r in set(self.du.uses(ins)):
                        counts[r] = counts.get(r, 0) + 1
                kept = [i for i in live if i.opcode not in _PURE or i.guard is not None
                        or any(counts.get(r) for r in self.du.defs(i)) or not self.du.defs(i)]
                if len(kept) == len(live):
                    break
                live = kept
            self._read_counts = counts
        return self._read_counts.get(reg, 0)

    def _kept_lane_test(self, p) -> bool:
        """`and.pred p, LANE, q` (docs/findings/atomic.md "A one-lane test and-ed with a compare (helper tatom,
        stop 21)"): ptxas folds the and into one of the two compares, the other becoming its accumulated
        predicate (`ISETP q, ..., !P_lane`). It knows the result holds in one lane only when the lane test is
        the kept, accumulated one: it has other readers, the other compare has none; and a %tid.x test only
        in a one-dimensional .reqntid block (%laneid always)."""
        d = self._only_def(p)
        if d is None or d.opcode != "setp" or self._readers(p.name) < 2 or self.one_lane_when(p.name) is not True:
            return False
        lane = any(self._index(x) == "lane" for x in d.operands[1:3])
        return lane or linear_block(self.am.fn)

    def _folded_compare(self, q) -> bool:
        d = self._only_def(q)
        return d is not None and d.opcode == "setp" and self._readers(q.name) == 1

    def _value_before(self, o, ins: ori.Instr):
        """The immediate `o` holds where `ins` reads it: an immediate, a register with one mov of an immediate,
        or the last mov of an immediate to it before `ins` in ins's block (`mov %r16, 0; mov %r17, %r16;
        elect.sync %r16|p`: the elect redefines %r16 after the copy), else None."""
        if type(o) is A.Imm:
            return o.value
        if type(o) is not A.Reg:
            return None
        d = self._only_def(o)
        if d is None:
            block = next((b for b in self.am.fn.blocks if any(i is ins for i in b.instrs)), None)
            if block is None:
                return None
            before = block.instrs[:next(k for k, i in enumerate(block.instrs) if i is ins)]
            d = next((i for i in reversed(before) if i.operands and i.operands[0] == o), None)
            if d is None or d.guard is not None:
                return None
        if d.opcode == "mov" and len(d.operands) == 2 and type(d.operands[1]) is A.Imm:
            return d.operands[1].value
        return None

    def _flag_of_one_lane(self, x, k) -> bool | None:
        """`x` a flag a one-lane predicate sets (`mov %f, 0; @p mov %f, 1` with p from elect.sync or a lane
        test: cooperative groups' invoke_one) compared with the immediate `k`: True if `x == k` holds in at most
        one lane, False if it fails in at most one, else None (probes atomic/single_lane_elect_flag*)."""
        if type(x) is not A.Reg or type(k) is not A.Imm:
            return None
        ds = self.du.definitions(x.name)
        if len(ds) == 1 and self._elect_only:
            return self._selected_flag(ds[0], k)
        if len(ds) != 2:
            return None
        guarded = [i for i in ds if i.guard is not None]
        plain = [i for i in ds if i.guard is None]
        if len(guarded) != 1 or len(plain) != 1 or not self.guard_one_lane(guarded[0].guard):
            return None
        g, u = guarded[0], plain[0]
        if g.opcode != "mov" or u.opcode != "mov" or len(g.operands) != 2 or len(u.operands) != 2:
            return None
        set_to, default = self._value_before(g.operands[1], g), self._value_before(u.operands[1], u)
        if set_to is None or default is None or set_to == default or k.value not in (set_to, default):
            return None
        return k.value == set_to

    def _selected_flag(self, d: ori.Instr, k) -> bool | None:
        """The flag as `selp r, A, B, p` with p from elect.sync sets it (cute-style `elect.sync _|P; selp.b32 r,
        1, 0, P`), compared with the immediate k: True if `r == k` holds in at most one lane, False if it fails in
        at most one. Copies under it take no ELECT loop (docs/findings/async.md "A selp of the elect.sync
        predicate elects the copy (helper nvws33, stop 33)")."""
        if d.opcode != "selp" or d.guard is not None or len(d.operands) != 4 or type(d.operands[3]) is not A.Reg:
            return None
        set_to, default = self._value_before(d.operands[1], d), self._value_before(d.operands[2], d)
        if set_to is None or default is None or set_to == default or k.value not in (set_to, default):
            return None
        if not self.guard_one_lane(d.operands[3]):
            return None
        return k.value == set_to

    def guard_one_lane(self, guard) -> bool:
        """Does the guard hold in at most one lane?"""
        neg = type(guard) is A.Not
        g = guard.inner if neg else guard
        if type(g) is not A.Reg:
            return False
        v = self.one_lane_when(g.name)
        return v is not None and v != neg

    # ---- blocks
    def _blocks(self) -> set[str]:
        """Blocks reached only through a branch edge that at most one lane takes, and what they dominate."""
        fn = self.am.fn
        preds: dict[str, int] = {}
        for b in fn.blocks:
            for s in b.succs:
                preds[s] = preds.get(s, 0) + 1
        heads = set()
        for b in fn.blocks:
            last = b.instrs[-1] if b.instrs else None
            if last is None or last.opcode != "bra" or last.guard is None or len(b.succs) != 2:
                continue
            taken = next((o.name for o in last.operands if type(o) is A.Sym), None)
            neg = type(last.guard) is A.Not
            g = last.guard.inner if neg else last.guard
            v = self.one_lane_when(g.name) if type(g) is A.Reg else None
            if v is None or taken not in b.succs:
                continue
            side = taken if v != neg else next(s for s in b.succs if s != taken)
            if preds.get(side) == 1 and side != b.label:
                heads.add(side)
        if not heads:
            return set()
        idom = self.am.idom
        return {b.label for b in fn.blocks if any(dominates(idom, h, b.label) for h in heads)}

    def elected(self, block: str) -> bool:
        """Is the block reached only through the edge an elect.sync's lane takes (its predicate, a flag it sets,
        or-ed with other tests)? One lane runs it, so a uniform-datapath copy there needs no ELECT loop of its
        own (probes async/elected_region_*; docs/findings/async.md "Copies in an elect.sync's region (helper
        isel, stop 23)")."""
        if self._elected is None:
            self._elect_only = True
            try:
                self._elected = self._blocks()
            finally:
                self._elect_only = False
        return block in self._elected

    def elected_guard(self, guard) -> bool:
        """Does the guard hold only in the elect.sync lane (its predicate, or a flag it sets)?"""
        self._elect_only = True
        try:
            return guard is not None and type(guard) is not A.Not and self.guard_one_lane(guard)
        finally:
            self._elect_only = False

    def runs_one_lane(self, block: str, ins: ori.Instr) -> bool:
        return block in self.blocks or ins.guard is not None and self.guard_one_lane(ins.guard)
