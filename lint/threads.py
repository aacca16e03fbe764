"""Thread dependence: for every register read, whether its value can differ between the lanes of a warp,
and whether it can differ between warps (for the same lane). The level reported is LANE (differs between
lanes), WARP (the same within each warp, different between warps: `%tid.x >> 5`) or UNIFORM (the same in
every thread of the CTA).

This is the program's own dependence on the thread index, not ptxas's uniformity model (that one,
passes/analysis/uniformity.py, answers what ptxas treats as divergent). A value is a tuple
(lanes, warps, form, shift):

- lanes: the bits of the lane index (a 5-bit mask) the value may depend on; warps: may it differ between
  warps at the same lane.
  %tid.x differs in both; %laneid, `%tid.x & 31` and loads through lane-only addresses only between lanes
  (lane l sees the same value in every warp); %warpid, `%tid.x >> 5` only between warps. %tid.y/%tid.z
  differ between lanes only when the block's x extent (`.reqntid`) is not a multiple of 32, or unknown
  and they are used under `.maxntid` with x < 32; %ctaid, %ntid, kernel parameters and constants are
  uniform.
- form b (for lane-varying values): the value is h + l with h the same in a warp and a multiple of 2^b and
  0 <= l < 2^b (%tid.x and %laneid have b = 5). Shifting right by >= b, dividing by a multiple of 2^b,
  masking the low b bits away, extracting bits above b and comparing against a threshold that is a
  multiple of 2^b with < / >= (or t-1 with <= / >) drop the lane part: `%tid.x / 32`,
  `setp.lt.u32 %p, %tid.x, 128`; masking to fewer than b bits drops the warp part.
- loads take the dependence of their address (the same address gives the same value); atomics,
  mbarrier results and the predicate of elect.sync differ everywhere; warp reductions (vote, redux,
  ballot) and shfl.idx from a warp-uniform lane are the same within a warp, and the same in every warp
  when their input is lane-only (every warp reduces the same values); shuffles permute lanes the same way
  in every warp; bar.red results are the same in the whole CTA.
- shift: where bit 0 of the lane index sits in the value (%tid.x, %laneid: 0), so shifts, masks and bit
  extracts tell which lane bits survive: `(%tid.x >> 1) & 1` depends on lane bit 1 only. A commutative
  combine of a value with its own butterfly shuffle `op(x, shfl.bfly(x, 2^k))` no longer depends on lane
  bit k: the butterfly reductions Triton and CUB write end with every lane holding the same value.
- control: where a register is written in several places (PTX is not SSA: loop variables, inline-asm
  scopes), a read takes the dependence of the writes that reach it (reaching definitions) and of the
  branches deciding which write reaches (blocks controlling some of them but not all, guards of guarded
  writes), as a phi of those branches would.

`bra.uni` declares its branch the same for every lane: such a branch is at most warp-dependent. In a CTA of
one warp (`.reqntid`/`.maxntid` <= 32) warp-dependent values are uniform.
"""
from __future__ import annotations

from typing import NamedTuple

from pylower.lowering import ptx_ast as A

from .values import is_special

UNIFORM, WARP, LANE = 0, 1, 2
NAMES = {UNIFORM: "uniform", WARP: "warp-dependent", LANE: "lane-dependent"}
ALL_LANES = 0x1F
_MAXB = 63


class V(NamedTuple):
    lanes: int              # lane-index bits the value may depend on (0: the same in every lane of a warp)
    warps: int              # 1: may differ between warps at the same lane
    form: int | None = None     # lanes: value = h + l, h warp-uniform multiple of 2^form, 0 <= l < 2^form;
                                # no lanes: the value is a multiple of 2^form (its known alignment)
    shift: int | None = None    # lane bit i is value bit i + shift (lane bits only through shifts/masks)

    def flat(self) -> "V":
        return self if self.form is None and self.shift is None else V(self.lanes, self.warps)


U = V(0, 0)
W = V(0, 1)
LO = V(ALL_LANES, 0)
L = V(ALL_LANES, 1)


def join(a: V, b: V) -> V:
    if a == b:
        return a
    both = a.lanes and b.lanes
    if not a.lanes and not b.lanes:
        form = min(a.form, b.form) if a.form is not None and b.form is not None else None
        return V(0, a.warps | b.warps, form)
    return V(a.lanes | b.lanes, a.warps | b.warps,
             a.form if both and a.form == b.form else None,
             a.shift if both and a.shift == b.shift else None)


def align_of(c) -> int | None:
    """Trailing zero bits of a constant (its alignment), capped."""
    if not isinstance(c, int):
        return None
    c &= (1 << 64) - 1
    return _MAXB if c == 0 else min((c & -c).bit_length() - 1, _MAXB)


def _align(v: V) -> int:
    """The known alignment of a value without lane dependence (0 when unknown)."""
    return 0 if v.lanes or v.form is None else v.form


def level(v: V) -> int:
    return LANE if v.lanes else (WARP if v.warps else UNIFORM)


def _pow2(c) -> int | None:
    if isinstance(c, int) and c > 0 and c & (c - 1) == 0:
        return c.bit_length() - 1
    return None


_MIRROR = {"lt": "gt", "gt": "lt", "le": "ge", "ge": "le", "lo": "hi", "hi": "lo", "ls": "hs", "hs": "ls",
           "eq": "eq", "ne": "ne"}
_CMP = frozenset(_MIRROR)
# operations whose two operands can be swapped (a butterfly combine)
_COMMUTATIVE = frozenset({"add", "mul", "min", "max", "and", "or", "xor"})


class Threads:
    """Register reads -> V for one function."""

    def __init__(self, facts):
        self.f = facts
        self.regs, self.values, self.control = facts.regs, facts.values, facts.control
        self._sreg = facts.sreg_levels()
        self.one_warp = (facts.max_threads() or 1 << 30) <= 32
        self._local_stores = U
        self._param_stores: dict[str, V] = {}
        self._block_of = facts.block_of
        self.single: dict[str, V] = {}          # single-definition register -> its value
        self._reaching()
        self._run()

    # ------------------------------------------------------------------ reaching definitions
    def _reaching(self) -> None:
        """Which writes of each register written more than once reach each of its reads (PTX registers are
        reused: an inline-asm scope may declare `%p1` again, a loop variable is written before and in the
        loop)."""
        from bitarray import bitarray
        fn, regs = self.f.fn, self.regs
        multi = {r: ds for r, ds in self.values.defs.items() if len(ds) > 1}
        self.multi = multi
        index: dict[tuple, int] = {}
        self.dlist: list[tuple] = []
        masks: dict[str, object] = {}
        for r, ds in multi.items():
            for d in ds:
                if (id(d), r) not in index:
                    index[(id(d), r)] = len(self.dlist)
                    self.dlist.append((d, r))
        n = len(self.dlist)
        self.dval: list = [None] * n
        self.reach: dict[tuple, tuple] = {}
        if not n:
            return
        for k, (d, r) in enumerate(self.dlist):
            m = masks.get(r)
            if m is None:
                m = masks[r] = bitarray(n)
                m.setall(0)
            m[k] = 1
        zero = bitarray(n)
        zero.setall(0)
        gen, kill = {}, {}
        for b in fn.blocks:
            g, kl = zero.copy(), zero.copy()
            for ins in b.instrs:
                for r in regs.defs(ins):
                    if r not in multi:
                        continue
                    k = index[(id(ins), r)]
                    if ins.guard is None:
                        g &= ~masks[r]
                        kl |= masks[r]
                    g[k] = 1
            gen[b.label], kill[b.label] = g, kl
        IN = {b.label: zero.copy() for b in fn.blocks}
        OUT = {b.label: gen[b.label].copy() for b in fn.blocks}
        order = [b.label for b in fn.blocks]
        preds = {b.label: [p for p in b.preds if p in OUT] for b in fn.blocks}
        changed = True
        while changed:
            changed = False
            for x in order:
                i = zero.copy()
                for p in preds[x]:
                    i |= OUT[p]
                o = gen[x] | (i & ~kill[x])
                if o != OUT[x]:
                    OUT[x] = o
                    changed = True
                IN[x] = i
        for b in fn.blocks:
            cur = IN[b.label].copy()
            for ins in b.instrs:
                for r in regs.uses(ins):
                    if r in multi:
                        self.reach[(id(ins), r)] = tuple((cur & masks[r]).search(1))
                for r in regs.defs(ins):
                    if r in multi:
                        k = index[(id(ins), r)]
                        if ins.guard is None:
                            cur &= ~masks[r]
                        cur[k] = 1
        self._index = index
        self._phi_cache: dict[tuple, list] = {}

    def _deciders(self, ks: tuple) -> list:
        """The condition nodes deciding which of the writes `ks` reaches: blocks controlling some of them but
        not all, and the guards of guarded writes."""
        got = self._phi_cache.get(ks)
        if got is None:
            sets = []
            for k in ks:
                d = self.dlist[k][0]
                label = self._block_of[id(d)]
                s = set(self.control.controls(label)) if self.control.live(label) else set()
                if d.guard is not None:
                    s.add(("guard", k))
                sets.append(s)
            got = self._phi_cache[ks] = list(set().union(*sets) - set.intersection(*sets))
        return got

    # ------------------------------------------------------------------ operands
    def reg(self, name: str, at=None) -> V:
        """The value of register `name` as instruction `at` reads it (None: joined over every write)."""
        if is_special(name):
            return self._sreg(name)
        if name in self.multi:
            ks = self.reach.get((id(at), name)) if at is not None else None
            if ks is None:
                ks = tuple(self._index[(id(d), name)] for d in self.multi[name])
            v = None
            for k in ks:
                dv = self.dval[k]
                if dv is not None:
                    v = dv if v is None else join(v, dv)
            v = U if v is None else v
            if len(ks) > 1:
                for node in self._deciders(ks):
                    nv = self._node_value(node)
                    if nv.lanes or nv.warps:
                        v = join(v, nv.flat())
            return v
        return self.single.get(name, U)

    def val(self, o, at=None) -> V:
        t = type(o)
        if t is A.Reg:
            return self.reg(o.name, at)
        if t is A.Sym:
            return self.reg(o.name, at) if self.regs.is_reg(o.name) else U
        if t is A.Addr or t is A.Vec or t is A.Paren:
            v = U
            for i in o.items:
                v = join(v, self.val(i, at))
            return v.flat() if len(o.items) != 1 else v
        if t is A.Not:
            return self.val(o.inner, at)
        if t is A.Neg:
            return self.val(o.inner, at).flat()
        if t is A.Pair:
            return join(self.val(o.first, at), self.val(o.second, at))
        if t is A.Imm:
            return V(0, 0, align_of(o.value))
        return U

    def branch_value(self, label: str) -> V | None:
        """The dependence of the decision at the end of block `label` (a conditional branch, a guarded exit,
        brx), or None when the block does not end in one."""
        b = self.f.blocks[label]
        last = b.instrs[-1] if b.instrs else None
        if last is None:
            return None
        if last.opcode == "brx":
            srcs = self.regs.sources(last)
            v = self.val(srcs[0], last) if srcs else U
        elif last.guard is not None:
            v = self.val(last.guard, last)
        else:
            return U
        if last.opcode == "bra" and ".uni" in last.mods and v.lanes:
            v = W
        return v

    def branch_level(self, label: str):
        v = self.branch_value(label)
        return None if v is None else self.report(v)

    def guard_level(self, ins) -> int:
        return UNIFORM if ins.guard is None else self.report(self.val(ins.guard, ins))

    def report(self, v: V) -> int:
        """The level of a value as the checks use it: in a CTA of one warp, warp-dependent is uniform."""
        lv = level(v)
        return UNIFORM if lv == WARP and self.one_warp else lv

    def level_of(self, o, at=None) -> int:
        return self.report(self.val(o, at))

    def _node_value(self, node) -> V:
        if isinstance(node, str):
            v = self.branch_value(node)
            return U if v is None else v
        d = self.dlist[node[1]][0]
        return U if d.guard is None else self.val(d.guard, d)

    # ------------------------------------------------------------------ fixpoint
    def _run(self) -> None:
        fn = self.f.fn
        index = getattr(self, "_index", {})
        for _ in range(50):
            changed = False
            for b in fn.blocks:
                for ins in b.instrs:
                    if ins.opcode == "st":
                        self._note_store(ins)
                    ds = self.regs.defs(ins)
                    if not ds:
                        continue
                    for r, v in self.transfer(ins, ds).items():
                        if r in self.multi:
                            k = index[(id(ins), r)]
                            old = self.dval[k]
                            new = v if old is None else join(old, v)
                            if new != old:
                                self.dval[k] = new
                                changed = True
                        else:
                            old = self.single.get(r)
                            new = v if old is None else join(old, v)
                            if new != old:
                                self.single[r] = new
                                changed = True
            if not changed:
                break

    def def_value(self, ins, r) -> V:
        """The value instruction `ins` writes to `r`."""
        if r in self.multi:
            return self.dval[self._index[(id(ins), r)]] or U
        return self.single.get(r, U)

    def _note_store(self, ins) -> None:
        srcs = self.regs.sources(ins)
        if len(srcs) < 2:
            return
        v = self.val(srcs[1], ins).flat()
        if ".local" in ins.mods:
            self._local_stores = join(self._local_stores, v)
        elif ".param" in ins.mods and type(srcs[0]) is A.Addr and srcs[0].items and type(srcs[0].items[0]) is A.Sym:
            k = srcs[0].items[0].name
            self._param_stores[k] = join(self._param_stores.get(k, U), v)

    def param_store_level(self, sym: str) -> V:
        return self._param_stores.get(sym, U)

    # ------------------------------------------------------------------ transfer
    def transfer(self, ins, ds) -> dict:
        op = ins.opcode
        srcs = self.regs.sources(ins)
        vals = [self.val(s, ins) for s in srcs]
        allv = U
        for v in vals:
            allv = join(allv, v)
        flat = allv.flat()

        def same(v):
            return {r: v for r in ds}

        if op in ("ld", "ldu", "tex", "tld4", "suld"):
            if ".param" in ins.mods and srcs and type(srcs[0]) is A.Addr and srcs[0].items \
                    and type(srcs[0].items[0]) is A.Sym:
                return same(self.f.param_level(srcs[0].items[0].name, self))
            v = flat
            if ".local" in ins.mods:
                v = join(v, self._local_stores)
            return same(v.flat())
        if op == "ldmatrix":
            return same(V(ALL_LANES, flat.warps))
        if op in ("atom", "mbarrier", "suq", "txq"):
            return same(L)
        if op == "shfl":
            return self._shfl(ins, ds, srcs, vals)
        if op in ("vote", "redux"):
            return same(V(0, flat.warps))
        if op == "match":
            return same(V(ALL_LANES if ".any" in ins.mods else 0, flat.warps))
        if op == "activemask":
            return same(W)
        if op == "elect":
            d = ins.operands[0]
            out = {r: W for r in ds}
            if type(d) is A.Pair:
                for r in self._names(d.second):
                    out[r] = L
            return out
        if op in ("bar", "barrier"):
            return same(U)
        if op in ("setp", "set"):
            return same(self._setp(ins, srcs, vals))
        if op in ("mov", "cvt", "cvta") and len(srcs) == 1 and type(srcs[0]) is not A.Vec:
            parts = self._unpacked(ins, srcs[0]) if op == "mov" else None
            return same(vals[0]) if parts is None else parts
        if not allv.lanes:
            return same(_aligned(op, ins, vals, flat, [self.values.const(x) for x in srcs]))
        return same(self._arith(op, ins, srcs, vals, flat))

    def _unpacked(self, ins, src) -> dict | None:
        """`mov.b64 {a, b}, %rd` of a register whose one write packed it (`mov.b64 %rd, {x, y}`): each element
        takes the dependence of its own part (Triton packs a lane-dependent low half with a uniform high half
        and reads the high half back as a loop bound); None when the source is no such pack."""
        dest = ins.operands[0] if ins.operands else None
        if type(dest) is not A.Vec or type(src) is not A.Reg:
            return None
        writes = self.values.defs.get(src.name, ())
        if len(writes) != 1 or writes[0].opcode != "mov" or len(writes[0].operands) != 2:
            return None
        packed = writes[0].operands[1]
        if type(packed) is not A.Vec or len(packed.items) != len(dest.items):
            return None
        out: dict = {}
        for item, part in zip(dest.items, packed.items):
            for r in self._names(item):
                out[r] = self.val(part, writes[0])
        return out

    def _names(self, o) -> list:
        out: list = []
        self.regs.collect(o, out)
        return out

    def _shfl(self, ins, ds, srcs, vals):
        if len(vals) < 3:
            return {r: L for r in ds}
        v, lane = vals[0], vals[1]
        if not v.lanes:
            return {r: V(0, v.warps) for r in ds}
        mode = next((m for m in (".idx", ".up", ".down", ".bfly") if m in ins.mods), "")
        seg = self.values.const(srcs[2])
        if mode == ".idx" and not lane.lanes and seg == 0x1F:
            return {r: V(0, v.warps | lane.warps) for r in ds}          # a broadcast from one lane
        if mode == ".bfly" and not lane.lanes and seg == 0x1F:
            return {r: V(v.lanes, v.warps | lane.warps) for r in ds}    # lane l gets lane l^k: same bits
        return {r: V(ALL_LANES, v.warps | lane.warps) for r in ds}

    def _setp(self, ins, srcs, vals) -> V:
        cmp = next((m[1:] for m in ins.mods if m[1:] in _CMP), None)
        extra = U
        for v in vals[2:]:
            extra = join(extra, v)
        if len(vals) < 2:
            return join(extra, vals[0] if vals else U).flat()
        a, b = vals[0], vals[1]
        res = join(a, b).flat()
        if cmp is not None and res.lanes:
            ca, cb = self.values.const(srcs[0]), self.values.const(srcs[1])
            x = c = None
            if a.lanes and a.form is not None and cb is not None:
                x, c = a, cb
            elif b.lanes and b.form is not None and ca is not None:
                x, c, cmp = b, ca, _MIRROR[cmp]
            if x is not None:
                p = 1 << x.form
                if cmp in ("lt", "ge", "lo", "hs") and c % p == 0 or cmp in ("le", "gt", "ls", "hi") and (c + 1) % p == 0:
                    res = V(0, x.warps)
        return join(res, extra.flat()).flat()

    def _arith(self, op, ins, srcs, vals, flat) -> V:
        if op == "mad" and len(srcs) == 3:
            return self._mad(srcs, vals, flat)
        if op in _COMMUTATIVE and len(srcs) == 2:
            sym = self._butterfly(srcs, vals, ins)
            if sym is not None:
                return sym
        lanes = [i for i, v in enumerate(vals) if v.lanes]
        if len(lanes) != 1:
            return flat
        i = lanes[0]
        v = vals[i]
        others = [self.values.const(s) for j, s in enumerate(srcs) if j != i]
        if op in ("not", "cvt", "mov") and not others:
            return v
        if None in others:
            if op in ("add", "sub") and len(vals) == 2 and (op == "add" or i == 0):
                return _form_op(op, i, v, None, _align(vals[1 - i]))
            return flat
        if op == "bfe" and i == 0 and len(others) == 2:
            return _bfe(v, *others)
        if len(others) != 1:
            return V(v.lanes, v.warps)
        return _form_op(op, i, v, others[0])

    def _butterfly(self, srcs, vals, ins) -> V | None:
        """op(x, shfl.bfly(x, 2^k)): the result no longer depends on lane bit k."""
        for i, j in ((0, 1), (1, 0)):
            x, y = srcs[i], srcs[j]
            if type(x) not in (A.Reg, A.Sym) or type(y) not in (A.Reg, A.Sym):
                continue
            ds = self.values.defs.get(self._copied(y.name, ins)[0], ())
            if len(ds) != 1 or ds[0].opcode != "shfl" or ".bfly" not in ds[0].mods:
                continue
            sh = ds[0]
            s_srcs = self.regs.sources(sh)
            if len(s_srcs) < 3 or type(s_srcs[0]) not in (A.Reg, A.Sym) or self.values.const(s_srcs[2]) != 0x1F:
                continue
            root, reader = self._copied(s_srcs[0].name, sh)
            if root != self._copied(x.name, ins)[0]:
                continue
            if root in self.multi and self.reach.get((id(reader), root)) != self.reach.get((id(ins), root)):
                continue
            k = _pow2(self.values.const(s_srcs[1]))
            if k is None or k > 4:
                continue
            v = join(vals[i], vals[j])
            return V(v.lanes & ~(1 << k), v.warps)
        return None

    def _copied(self, name: str, reader) -> tuple[str, object]:
        """The register `name` (read by `reader`) is a copy of, through single-definition `mov`s, and the
        instruction that reads that register (nvcc moves an f32 into a b32 register around each shuffle:
        `mov.b32 %r, %f; shfl %s, %r; mov.b32 %g, %s; max.f32 %h, %f, %g`)."""
        for _ in range(8):
            ds = self.values.defs.get(name, ())
            if len(ds) != 1 or ds[0].opcode != "mov" or name in self.multi:
                break
            srcs = self.regs.sources(ds[0])
            if len(srcs) != 1 or type(srcs[0]) not in (A.Reg, A.Sym):
                break
            name, reader = srcs[0].name, ds[0]
        return name, reader

    def _mad(self, srcs, vals, flat) -> V:
        a, b, c = vals
        ka, kb, kc = (self.values.const(s) for s in srcs)
        if a.lanes and kb is not None and not b.lanes:
            t = _form_op("mul", 0, a, kb)
        elif b.lanes and ka is not None and not a.lanes:
            t = _form_op("mul", 0, b, ka)
        elif not a.lanes and not b.lanes:
            t = _aligned("mul", None, [a, b], V(0, a.warps | b.warps))
        else:
            return flat
        if not t.lanes and c.lanes:
            return _form_op("add", 0, c, None, _align(t)) if t.warps or c.warps else flat
        if not t.lanes:
            return _aligned("add", None, [t, c], flat)
        if c.lanes:
            return flat
        return _form_op("add", 0, t, kc, _align(c))


def _keep_bits(v: V, lo: int, hi: int | None, shift: int) -> V:
    """v restricted to its bits lo..hi-1 (hi None: all above lo), then shifted right by `shift`: which lane
    bits survive when their positions are known."""
    if v.shift is None:
        return V(v.lanes, v.warps)
    lanes = 0
    for i in range(5):
        if v.lanes >> i & 1:
            pos = i + v.shift
            if pos >= lo and (hi is None or pos < hi):
                lanes |= 1 << i
    return V(lanes, v.warps, None, v.shift - shift if lanes else None)


def _bfe(v: V, pos: int, ln: int) -> V:
    out = _keep_bits(v, pos, pos + ln, pos)
    if v.form is not None and pos >= v.form:
        out = V(0, out.warps)
    elif v.form is not None and pos + ln <= v.form:
        out = V(out.lanes, 0, None, out.shift)
    return out


def _form_op(op, i, v: V, c, align: int | None = None) -> V:
    """The result of `op` on a lane-varying value v (source position i) and a constant c (or, for add/sub,
    a value of known alignment `align`)."""
    lanes, w, b, sh = v
    flat = V(lanes, w)
    if op in ("add", "sub") and (op == "add" or i == 0):
        a = align_of(c) if c is not None else (align or 0)
        form = b if b is not None and a >= b else None
        shift = sh if sh is not None and sh + 5 <= a else None
        return V(lanes, w, form, shift)
    if c is None:
        return flat
    if op == "mul":
        k = _pow2(c)
        if k is None:
            return flat
        op, c, i = "shl", k, 0
    if i != 0:
        return flat
    if op == "div":
        k = _pow2(c)
        if b is not None and c > 0 and c % (1 << b) == 0:
            return V(0, w)
        if k is None:
            return flat
        op, c = "shr", k
    if op == "rem":
        if b is not None and c > 0 and c % (1 << b) == 0:
            return V(lanes, w, b, sh)
        k = _pow2(c)
        if k is None:
            return flat
        op, c = "and", c - 1
    if op == "shl":
        if c < 0:
            return flat
        return V(lanes, w, min(b + c, _MAXB) if b is not None else None, sh + c if sh is not None else None)
    if op == "shr":
        out = _keep_bits(v, c, None, c)
        if b is not None:
            if c >= b:
                return V(0, w)
            out = V(out.lanes, out.warps, b - c, out.shift)
        return out
    if op == "and":
        if b is not None and c & ((1 << b) - 1) == 0:
            return V(0, w)
        out = v
        if sh is not None:
            lanes2 = 0
            for bit in range(5):
                if lanes >> bit & 1 and c >> (bit + sh) & 1 if bit + sh >= 0 else False:
                    lanes2 |= 1 << bit
            out = V(lanes2, w, b, sh if lanes2 else None)
        if b is not None and 0 <= c < (1 << b):
            out = V(out.lanes, 0, b, out.shift)         # the warp part (above bit b) is masked away
        return out if out.lanes else V(0, out.warps)
    if op in ("or", "xor"):
        return v
    if op == "not":
        return v
    return flat



def _aligned(op, ins, vals, flat: V, consts=()) -> V:
    """Alignment (known trailing zero bits) through arithmetic on values without lane dependence; `consts`
    are the sources' constant values (None when not constant)."""
    if op in ("mov", "cvt", "cvta") and len(vals) == 1:
        return vals[0]
    al = [_align(v) for v in vals]
    k = consts[1] if len(consts) > 1 else None
    if op in ("add", "sub", "min", "max", "or", "xor") and len(vals) >= 2:
        a = min(al[:2])
    elif op == "selp" and len(vals) >= 2:
        a = min(al[:2])
    elif op == "mul" and len(vals) == 2:
        a = al[0] + al[1]
    elif op == "mad" and len(vals) == 3:
        a = min(al[0] + al[1], al[2])
    elif op == "shl" and len(vals) == 2 and isinstance(k, int) and k >= 0:
        a = al[0] + k
    elif op == "shr" and len(vals) == 2 and isinstance(k, int) and k >= 0:
        a = max(al[0] - k, 0)
    elif op == "and" and len(vals) == 2:
        a = max(al)
    else:
        return flat
    return V(0, flat.warps, min(a, _MAXB) or None)
