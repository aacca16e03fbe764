"""Generate the atomic/reduction probe corpus (tests/corpus/probes/atomic/).

    python -m pylower.tools.gen_atomic_probes [--out DIR] [--clean]

Deterministic: the same script writes byte-identical files. One PTX form per file, one `.visible .entry k`
taking a `.param .u64 p` pointer; results (when used) are stored to p[tid] so ptxas keeps the atomic.

Dimensions (each covered fully at least once against a base form; see docs/findings/atomic.md):
  matrix_*   op x type x space, per-thread address, result used (atom) / plain (red)
  order_*    sem x scope for atom/red (global, shared, generic)
  agg_*      warp-aggregation contexts: uniform vs per-thread address, result used/dead/sink, imm vs reg value
  hint_*     .L2::cache_hint
  vec_*      .v2/.v4/.v8 vector atom/red
  b128_*     128-bit cas/exch
  rasync_*   red.async
  ver_*      PTX-version gates, misc_* loops/divergence/mmio/illegal spellings
"""
from __future__ import annotations

import argparse
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "corpus" / "probes" / "atomic"

# type -> (register class prefix, register decl, bytes, store type)
TYPES = {
    "b16": ("h", 2), "f16": ("h", 2), "bf16": ("h", 2),
    "b32": ("r", 4), "u32": ("r", 4), "s32": ("r", 4), "f16x2": ("r", 4), "bf16x2": ("r", 4),
    "f32": ("f", 4),
    "b64": ("rd", 8), "u64": ("rd", 8), "s64": ("rd", 8),
    "f64": ("fd", 8),
    "b128": ("q", 16),
}
HALF = {"f16", "bf16", "f16x2", "bf16x2"}

SPACE_SFX = {"generic": "", "global": ".global", "shared": ".shared", "shared_cta": ".shared::cta",
             "shared_cluster": ".shared::cluster"}


def _val_regs(ty: str, n: int, base: int) -> list[str]:
    cls, _ = TYPES[ty]
    pre = {"h": "%hv", "r": "%rv", "f": "%fv", "rd": "%dv", "fd": "%ev", "q": "%qv"}[cls]
    return [f"{pre}{base + i}" for i in range(n)]


def _make_values(ty: str, regs: list[str], uniform: bool) -> list[str]:
    """Code that fills value registers from %r1 (= tid.x) or a uniform constant, by bit casts only (no
    target-gated conversions, so a rejection is attributable to the atomic)."""
    cls, _ = TYPES[ty]
    src32 = "%r9" if uniform else "%r1"
    out = []
    if uniform:
        out.append("  mov.u32 %r9, 1;")
    for i, r in enumerate(regs):
        if cls == "h":
            out.append(f"  add.u32 %r10, {src32}, {i};")
            out.append(f"  cvt.u16.u32 {r}, %r10;")
        elif cls == "r":
            out.append(f"  add.u32 {r}, {src32}, {i};")
        elif cls == "f":
            out.append(f"  add.u32 %r10, {src32}, {i};")
            out.append(f"  mov.b32 {r}, %r10;")
        elif cls in ("rd", "fd"):
            out.append(f"  add.u32 %r10, {src32}, {i};")
            out.append(f"  cvt.u64.u32 %rd10, %r10;")
            out.append(f"  mov.b64 {r}, %rd10;")
        elif cls == "q":
            out.append(f"  add.u32 %r10, {src32}, {i};")
            out.append(f"  cvt.u64.u32 %rd10, %r10;")
            out.append(f"  mov.b128 {r}, {{%rd10, %rd10}};")
    return out


def _store(ty: str, regs: list[str]) -> list[str]:
    cls, size = TYPES[ty]
    out = []
    for i, r in enumerate(regs):
        off = i * (size if cls != "q" else 16)
        adr = f"[%rd4+{off}]" if off else "[%rd4]"
        if cls == "q":
            out.append(f"  mov.b128 {{%rd11, %rd12}}, {r};")
            out.append(f"  st.global.v2.b64 {adr}, {{%rd11, %rd12}};")
        else:
            st = {"h": "b16", "r": "b32", "f": "f32", "rd": "b64", "fd": "f64"}[cls]
            out.append(f"  st.global.{st} {adr}, {r};")
    return out


def kernel(comment: str, body: list[str], *, version: str = "9.0", target: str = "sm_75", stride: int = 4,
           args: str | None = None, b128: bool = False, extra_decl: list[str] = ()) -> str:
    lines = [f"// {comment}"]
    if args:
        lines.append(f"//@ args: {args}")
    lines += [f".version {version}", f".target {target}", ".address_size 64", "",
              ".visible .entry k(.param .u64 p)", "{",
              "  .reg .pred %p<4>;", "  .reg .b16 %h<4>;", "  .reg .b16 %hv<20>;", "  .reg .b32 %r<24>;",
              "  .reg .b32 %rv<20>;", "  .reg .b64 %rd<24>;", "  .reg .b64 %dv<20>;", "  .reg .f32 %fv<20>;",
              "  .reg .f64 %ev<20>;"]
    if b128:
        lines.append("  .reg .b128 %qv<20>;")
    lines += list(extra_decl)
    lines += ["  .shared .align 16 .b8 s[2048];",
              "  ld.param.u64 %rd1, [p];",
              "  cvta.to.global.u64 %rd2, %rd1;",
              "  mov.u32 %r1, %tid.x;",
              f"  mul.wide.u32 %rd3, %r1, {stride};",
              "  add.s64 %rd4, %rd2, %rd3;"]
    lines += body
    lines += ["  ret;", "}", ""]
    return "\n".join(lines)


def _addr(space: str, addr: str, stride: int) -> tuple[list[str], str]:
    """Address code and operand. addr: 'uni' (param pointer / shared symbol) or 'tid' (+ tid*stride)."""
    if space == "global":
        return [], ("[%rd2]" if addr == "uni" else "[%rd4]")
    if space == "generic":
        if addr == "uni":
            return [], "[%rd1]"
        return ["  add.s64 %rd5, %rd1, %rd3;"], "[%rd5]"
    if space == "generic_shared":  # generic address that points to shared memory
        code = ["  mov.u64 %rd6, s;", "  cvta.shared.u64 %rd7, %rd6;"]
        if addr == "tid":
            code.append("  add.s64 %rd7, %rd7, %rd3;")
        return code, "[%rd7]"
    # shared spaces
    if addr == "uni":
        return [], "[s]"
    return ["  mov.u32 %r2, s;", f"  mad.lo.u32 %r3, %r1, {stride}, %r2;"], "[%r3]"


def atomic(kind: str = "atom", op: str = "add", ty: str = "u32", space: str = "global", sem: str = "",
           scope: str = "", addr: str = "tid", res: str = "used", val: str = "reg", vec: int = 0,
           hint: bool = False, noftz: bool | None = None, order: str = "std", mmio: bool = False,
           spell: str | None = None) -> list[str]:
    """Body lines for one atom/red. res: used | dead (register result never read) | sink (`_`)."""
    cls, size = TYPES[ty]
    n = vec or 1
    stride = size * n
    code, a = _addr(space, addr, stride)
    body = list(code)
    nb = 2 if op == "cas" else 1
    srcs = _val_regs(ty, n * nb, 0)
    if val == "imm" and n == 1 and nb == 1 and cls in ("r", "rd"):
        b = "1"
    elif val == "imm" and n == 1 and nb == 1 and cls == "f":
        b = "0f3F800000"
    else:
        body += _make_values(ty, srcs, uniform=(val == "imm"))
        if n == 1:
            b = ", ".join(srcs)
        else:
            b = ", ".join("{" + ", ".join(srcs[k * n:(k + 1) * n]) + "}" for k in range(nb))
    if hint:
        body.append("  createpolicy.fractional.L2::evict_last.b64 %rd9, 1.0;")
    dst = _val_regs(ty, n, 10)
    if noftz is None:
        noftz = ty in HALF and op in ("add", "min", "max")
    q = kind
    if mmio:
        q += ".mmio"
    q += (f".{sem}" if sem else "") + (f".{scope}" if scope else "") + SPACE_SFX.get(space, "")
    opq = f".{op}" + (".noftz" if noftz else "") + (".L2::cache_hint" if hint else "")
    tyq = (f".v{vec}" if vec else "") + f".{ty}"
    q += opq + tyq if order == "std" else tyq + opq
    if spell:
        q = spell
    ops = []
    if kind == "atom":
        if res == "sink":
            ops.append("_")
        else:
            ops.append("{" + ", ".join(dst) + "}" if vec else dst[0])
    ops.append(a)
    ops.append(b)
    if hint:
        ops.append("%rd9")
    body.append(f"  {q} {', '.join(ops)};")
    if kind == "atom" and res == "used":
        body += _store(ty, dst)
    return body


def probe(name: str, comment: str, version: str = "9.0", target: str = "sm_75", args: str | None = None,
          **kw) -> tuple[str, str]:
    ty = kw.get("ty", "u32")
    cls, size = TYPES[ty]
    stride = size * (kw.get("vec") or 1)
    body = atomic(**kw)
    return name, kernel(comment, body, version=version, target=target, stride=stride, args=args,
                        b128=(cls == "q"))


# --------------------------------------------------------------------------- the corpus

ATOM_OPS = {  # op -> legal (ISA) scalar types, then types probed as illegal
    "add": (["u32", "s32", "u64", "f32", "f64", "f16", "f16x2", "bf16", "bf16x2"], ["s64", "b32"]),
    "inc": (["u32"], ["u64", "s32"]),
    "dec": (["u32"], ["u64"]),
    "min": (["u32", "s32", "u64", "s64"], ["f32", "f64", "b32"]),
    "max": (["u32", "s32", "u64", "s64"], ["f32"]),
    "and": (["b32", "b64"], ["u32"]),
    "or": (["b32", "b64"], []),
    "xor": (["b32", "b64"], []),
    "exch": (["b32", "b64", "b128"], ["u32", "f32", "b16"]),
    "cas": (["b32", "b64", "b16", "b128"], ["u32"]),
}
MATRIX_GENERIC = {("add", "u32"), ("add", "u64"), ("add", "f32"), ("add", "f64"), ("add", "f16"), ("add", "bf16x2"),
                  ("min", "s64"), ("inc", "u32"), ("cas", "b32"), ("cas", "b16"), ("exch", "b64"), ("cas", "b64"), ("cas", "b128"),
                  ("xor", "b32")}
MATRIX_CLUSTER = {("add", "u32"), ("add", "f32"), ("add", "f16"), ("min", "s32"), ("cas", "b32"), ("exch", "b64"),
                  ("and", "b64")}
MATRIX_RED_SHARED = {("add", "u32"), ("add", "u64"), ("add", "f32"), ("add", "f64"), ("add", "f16"),
                     ("add", "f16x2"), ("add", "bf16"), ("inc", "u32"), ("min", "s32"), ("max", "u64"), ("and", "b32"),
                     ("xor", "b64")}
MIN_TARGET = {"bf16": "sm_90", "bf16x2": "sm_90", "b128": "sm_90", "shared_cluster": "sm_90"}


def _tgt(*keys) -> str:
    t = "sm_75"
    for k in keys:
        if k in MIN_TARGET:
            t = MIN_TARGET[k]
    return t


def corpus() -> list[tuple[str, str]]:
    P: list[tuple[str, str]] = []
    add = P.append
    spaces = ["global", "shared", "generic", "shared_cluster"]

    # ---- matrix: op x type x space (per-thread address, so no warp aggregation)
    for kind in ("atom", "red"):
        for op, (legal, illegal) in ATOM_OPS.items():
            if kind == "red" and op in ("exch", "cas"):
                continue
            for ty in legal:
                for sp in spaces:
                    if sp == "generic" and (op, ty) not in MATRIX_GENERIC:
                        continue
                    if sp == "shared_cluster" and (op, ty) not in MATRIX_CLUSTER:
                        continue
                    if kind == "red" and sp == "shared" and (op, ty) not in MATRIX_RED_SHARED:
                        continue
                    add(probe(f"matrix_{kind}_{sp}_{op}_{ty}", f"{kind}.{op}.{ty} in {sp} space, per-thread address",
                              target=_tgt(ty, sp), kind=kind, op=op, ty=ty, space=sp))
            for ty in illegal:
                add(probe(f"matrix_{kind}_global_{op}_{ty}", f"{kind}.global.{op}.{ty} (type not in the ISA list for {op})",
                          kind=kind, op=op, ty=ty, space="global"))
        # shared::cta spelling (one base form)
        add(probe(f"matrix_{kind}_shared_cta_add_u32", f"{kind}.shared::cta.add.u32", kind=kind, op="add",
                  ty="u32", space="shared_cta"))
        # generic address pointing at shared memory
        add(probe(f"matrix_{kind}_generic_to_shared_add_u32", f"{kind}.add.u32 generic address from cvta.shared",
                  kind=kind, op="add", ty="u32", space="generic_shared"))
    # f16/bf16 add without .noftz
    for ty in ("f16", "f16x2", "bf16", "bf16x2"):
        add(probe(f"illegal_atom_add_{ty}_no_noftz", f"atom.global.add.{ty} without .noftz",
                  target=_tgt(ty), op="add", ty=ty, noftz=False))
    # atom.add.noftz.f32 (noftz on a non-half type)
    add(probe("illegal_atom_add_noftz_f32", "atom.global.add.noftz.f32", op="add", ty="f32", noftz=True))
    # f16 min/max scalar (ISA: vector only)
    for op in ("min", "max"):
        for ty in ("f16", "bf16x2"):
            add(probe(f"matrix_atom_global_{op}_{ty}", f"atom.global.{op}.noftz.{ty} scalar (ISA lists vectors only)",
                      target="sm_90", op=op, ty=ty))

    # ---- ordering x scope
    sems = ["", "relaxed", "acquire", "release", "acq_rel", "sc"]
    scopes = ["", "cta", "cluster", "gpu", "sys"]
    for kind in ("atom", "red"):
        for sp in ("global", "shared", "generic"):
            for sem in sems:
                for sc in scopes:
                    if sp != "global" and (sem in ("sc", "") or sc not in ("cta", "sys")):
                        continue  # the full sem x scope square only for .global
                    if kind == "red" and sem in ("acquire", "acq_rel", "sc") and (sp != "global" or sc != "gpu"):
                        continue  # illegal for red: once each
                    nm = f"order_{kind}_{sp}_{sem or 'nosem'}_{sc or 'noscope'}"
                    add(probe(nm, f"{kind}{'.' + sem if sem else ''}{'.' + sc if sc else ''} {sp}.add.u32",
                              target="sm_90" if sc == "cluster" else "sm_75", kind=kind, sem=sem, scope=sc, space=sp))
        # ordering on a 64-bit and a float op, cas and exch (fence shapes may depend on op)
    for op, ty in (("cas", "b32"), ("exch", "b32"), ("add", "f32"), ("add", "u64"), ("min", "s32")):
        for sem in ("acquire", "release", "acq_rel"):
            add(probe(f"order_atom_global_{sem}_gpu_{op}_{ty}", f"atom.{sem}.gpu.global.{op}.{ty}",
                      sem=sem, scope="gpu", op=op, ty=ty))
    for sem in ("acquire", "release", "acq_rel"):
        add(probe(f"order_atom_shared_cluster_{sem}_cluster", f"atom.{sem}.cluster.shared::cluster.add.u32",
                  target="sm_90", sem=sem, scope="cluster", space="shared_cluster"))
        if sem != "release":     # the acquire CCTL.IVALL of a .shared::cta atomic at .cluster scope
            add(probe(f"order_atom_shared_{sem}_cluster", f"atom.{sem}.cluster.shared.add.u32",
                      target="sm_90", sem=sem, scope="cluster", space="shared"))
        add(probe(f"order_atom_global_{sem}_sys_sink", f"atom.{sem}.sys.global.add.u32 with `_` result",
                  sem=sem, scope="sys", res="sink"))

    # ---- warp aggregation contexts
    agg_ops = [("add", "u32"), ("add", "s32"), ("add", "u64"), ("add", "f32"), ("add", "f64"), ("add", "f16x2"),
               ("inc", "u32"), ("dec", "u32"), ("min", "u32"), ("max", "s32"), ("min", "u64"), ("and", "b32"),
               ("or", "b32"), ("xor", "b32"), ("and", "b64"), ("exch", "b32"), ("cas", "b32")]
    agg_generic = {("add", "u32"), ("add", "u64"), ("add", "f32"), ("and", "b32"), ("min", "u32"), ("exch", "b32"),
                   ("cas", "b32")}
    for sp in ("global", "shared", "generic"):
        for op, ty in agg_ops:
            if sp != "global" and (op, ty) not in agg_generic:
                continue
            for res in ("used", "dead"):
                add(probe(f"agg_atom_{sp}_{op}_{ty}_uni_{res}", f"atom.{sp}.{op}.{ty}, warp-uniform address, "
                          f"per-thread value, result {res}", space=sp, op=op, ty=ty, addr="uni", res=res))
            if op not in ("exch", "cas"):
                add(probe(f"agg_red_{sp}_{op}_{ty}_uni", f"red.{sp}.{op}.{ty}, warp-uniform address, per-thread value",
                          kind="red", space=sp, op=op, ty=ty, addr="uni"))
    for sp in ("global", "shared"):
        for kind in ("atom", "red"):
            for addr in ("uni", "tid"):
                for val in ("imm", "reg"):
                    ress = (("used", "dead", "sink") if sp == "global" else ("used", "dead")) if kind == "atom" else ("-",)
                    for res in ress:
                        nm = f"agg_ctx_{kind}_{sp}_add_u32_{addr}_{val}" + (f"_{res}" if kind == "atom" else "")
                        add(probe(nm, f"{kind}.{sp}.add.u32 address={addr} value={val} result={res}", kind=kind,
                                  space=sp, addr=addr, val=val, res=res))
    for op, ty in (("add", "u64"), ("add", "f32"), ("and", "b32"), ("min", "u32"), ("inc", "u32")):
        for kind in ("atom", "red"):
            add(probe(f"agg_ctx_{kind}_global_{op}_{ty}_uni_imm", f"{kind}.global.{op}.{ty} uniform address and value",
                      kind=kind, op=op, ty=ty, addr="uni", val="imm", res="dead"))
    # scoped/ordered uniform atomics: is aggregation kept?
    for sem, sc in (("relaxed", "cta"), ("relaxed", "sys"), ("acquire", "gpu")):
        for res in ("used", "dead"):
            add(probe(f"agg_atom_global_add_u32_uni_{res}_{sem or 'nosem'}_{sc}",
                      f"atom.{sem}.{sc}.global.add.u32 uniform address, result {res}", sem=sem, scope=sc,
                      addr="uni", res=res))
        add(probe(f"agg_red_global_add_u32_uni_{sem or 'nosem'}_{sc}", f"red.{sem}.{sc}.global.add.u32 uniform address",
                  kind="red", sem=sem, scope=sc, addr="uni"))
    # -O0: no aggregation?
    for kind in ("atom", "red"):
        add(probe(f"agg_{kind}_global_add_u32_uni_O0", f"{kind}.global.add.u32 uniform address at -O0", args="-O0",
                  kind=kind, addr="uni"))

    # ---- atom with result dropped vs red
    for sp in ("global", "shared"):
        for op, ty in (("add", "u32"), ("add", "f32"), ("exch", "b32"), ("cas", "b32"), ("max", "s64")):
            for res in ("dead", "sink"):
                if sp == "shared" and op in ("add", "max") and ty != "u32":
                    continue
                add(probe(f"dropped_atom_{sp}_{op}_{ty}_{res}", f"atom.{sp}.{op}.{ty} per-thread address, result {res}",
                          space=sp, op=op, ty=ty, res=res))

    # ---- L2 cache hint
    for kind in ("atom", "red"):
        for sp in ("global", "generic", "shared"):
            add(probe(f"hint_{kind}_{sp}_add_u32", f"{kind}.{sp}.add.L2::cache_hint.u32", target="sm_80",
                      kind=kind, space=sp, hint=True))
        for op, ty in (("add", "f32"), ("add", "u64"), ("min", "s32"), ("add", "f16x2")):
            add(probe(f"hint_{kind}_global_{op}_{ty}", f"{kind}.global.{op}.L2::cache_hint.{ty}", target="sm_80",
                      kind=kind, op=op, ty=ty, hint=True))
        add(probe(f"hint_{kind}_global_add_u32_uni", f"{kind}.global.add.L2::cache_hint.u32 uniform address",
                  target="sm_80", kind=kind, hint=True, addr="uni", res="dead"))
        add(probe(f"hint_{kind}_global_add_u32_relaxed_sys", f"{kind}.relaxed.sys.global.add.L2::cache_hint.u32",
                  target="sm_80", kind=kind, hint=True, sem="relaxed", scope="sys"))
    add(probe("hint_atom_global_cas_b32", "atom.global.cas.L2::cache_hint.b32 (ISA: no hint on cas)", target="sm_80",
              op="cas", ty="b32", hint=True))
    add(probe("hint_atom_global_exch_b32", "atom.global.exch.L2::cache_hint.b32", target="sm_80", op="exch", ty="b32",
              hint=True))

    # ---- vectors
    vec_forms = [(2, "f16", "add"), (4, "f16", "max"), (8, "f16", "add"), (8, "f16", "min"), (2, "bf16", "min"),
                 (4, "bf16", "add"), (8, "bf16", "max"), (2, "f16x2", "max"), (4, "f16x2", "add"), (2, "bf16x2", "add"),
                 (4, "bf16x2", "min"), (2, "f32", "add"), (4, "f32", "add")]
    for kind in ("atom", "red"):
        for v, ty, op in vec_forms:
            add(probe(f"vec_{kind}_global_{op}_v{v}_{ty}", f"{kind}.global.{op}.v{v}.{ty}", target="sm_90", kind=kind,
                      op=op, ty=ty, vec=v))
        for v, ty, op, sp in ((8, "f32", "add", "global"), (2, "f32", "min", "global"), (8, "f16x2", "add", "global"),
                              (2, "f16x2", "add", "shared"), (2, "f32", "add", "generic"), (2, "u32", "add", "global"),
                              (4, "f32", "add", "shared")):
            add(probe(f"vec_{kind}_{sp}_{op}_v{v}_{ty}", f"{kind}.{sp}.{op}.v{v}.{ty} (outside the ISA vector table "
                      f"or space)" if sp != "generic" else f"{kind}.{op}.v{v}.{ty} generic address", target="sm_90",
                      kind=kind, op=op, ty=ty, vec=v, space=sp))
        add(probe(f"vec_{kind}_global_add_v4_f32_uni", f"{kind}.global.add.v4.f32 uniform address", target="sm_90",
                  kind=kind, op="add", ty="f32", vec=4, addr="uni", res="dead"))
        add(probe(f"vec_{kind}_global_add_v4_f32_hint", f"{kind}.global.add.L2::cache_hint.v4.f32", target="sm_90",
                  kind=kind, op="add", ty="f32", vec=4, hint=True))
        add(probe(f"vec_{kind}_global_add_v4_f32_release_sys", f"{kind}.release.sys.global.add.v4.f32",
                  target="sm_90", kind=kind, op="add", ty="f32", vec=4, sem="release", scope="sys"))
        add(probe(f"vec_{kind}_global_add_v2_f16_isa_order", f"{kind}.global.v2.f16.add.noftz (ISA example spelling)",
                  target="sm_90", kind=kind, op="add", ty="f16", vec=2, order="vecfirst"))
    add(probe("vec_atom_global_add_v4_f32_sink", "atom.global.add.v4.f32 result `_`", target="sm_90", op="add",
              ty="f32", vec=4, res="sink"))

    # ---- 128-bit
    for op in ("cas", "exch"):
        for sp in ("shared_cluster",):  # global/shared/generic: matrix_atom_*_b128
            add(probe(f"b128_atom_{sp}_{op}", f"atom.{sp}.{op}.b128", target="sm_90", op=op, ty="b128", space=sp))
        for sem, sc in (("", "sys"), ("acquire", "gpu"), ("release", "sys"), ("acq_rel", "cta"), ("relaxed", "cluster")):
            add(probe(f"b128_atom_global_{op}_{sem or 'nosem'}_{sc}", f"atom.{sem}.{sc}.global.{op}.b128",
                      target="sm_90", op=op, ty="b128", sem=sem, scope=sc))
        add(probe(f"b128_atom_global_{op}_uni_dead", f"atom.global.{op}.b128 uniform address, result dead",
                  target="sm_90", op=op, ty="b128", addr="uni", res="dead"))
    add(probe("b128_atom_global_exch_hint", "atom.global.exch.L2::cache_hint.b128", target="sm_90", op="exch",
              ty="b128", hint=True))
    add(probe("b128_atom_global_add_b128", "atom.global.add.b128 (illegal op)", target="sm_90", op="add", ty="b128"))
    add(probe("b128_atom_global_cas_b128_v83", "atom.global.cas.b128 at PTX 8.3", version="8.3", target="sm_90",
              op="cas", ty="b128"))
    add(probe("b128_atom_global_cas_b128_v82", "atom.global.cas.b128 at PTX 8.2 (too old)", version="8.2",
              target="sm_90", op="cas", ty="b128"))
    add(probe("b128_atom_global_cas_sys_v83", "atom.sys.global.cas.b128 at PTX 8.3 (.sys needs 8.4)", version="8.3",
              target="sm_90", op="cas", ty="b128", scope="sys"))

    # ---- PTX version gates
    vg = [("ver_atom_bf16_v77", "7.7", dict(op="add", ty="bf16"), "sm_90"),
          ("ver_atom_bf16_v78", "7.8", dict(op="add", ty="bf16"), "sm_90"),
          ("ver_atom_cluster_scope_v77", "7.7", dict(scope="cluster", sem="relaxed"), "sm_90"),
          ("ver_atom_shared_cta_v77", "7.7", dict(space="shared_cta"), "sm_75"),
          ("ver_atom_shared_cluster_v77", "7.7", dict(space="shared_cluster"), "sm_90"),
          ("ver_atom_vec_v80", "8.0", dict(op="add", ty="f32", vec=2), "sm_90"),
          ("ver_atom_vec_v81", "8.1", dict(op="add", ty="f32", vec=2), "sm_90"),
          ("ver_atom_hint_v73", "7.3", dict(hint=True), "sm_80"),
          ("ver_atom_hint_v74", "7.4", dict(hint=True), "sm_80"),
          ("ver_atom_sem_v50", "5.0", dict(sem="relaxed", scope="gpu"), "sm_75"),
          ("ver_atom_scope_v50", "5.0", dict(scope="gpu"), "sm_75"),
          ("ver_atom_cas_b16_v62", "6.2", dict(op="cas", ty="b16"), "sm_75"),
          ("ver_atom_add_f16_v62", "6.2", dict(op="add", ty="f16"), "sm_75"),
          ("ver_red_bf16x2_v77", "7.7", dict(kind="red", op="add", ty="bf16x2"), "sm_90")]
    for nm, v, kw, t in vg:
        add(probe(nm, f"{nm[4:]}: PTX {v}", version=v, target=t, **kw))

    # ---- red.async
    ra = [("inc", "u32"), ("dec", "u32"), ("min", "u32"), ("max", "u32"), ("min", "s32"), ("max", "s32"),
          ("and", "b32"), ("or", "b32"), ("xor", "b32"), ("add", "u32"), ("add", "s32"), ("add", "u64")]
    for op, ty in ra:
        add(("rasync_cluster_" + f"{op}_{ty}", _red_async(op, ty)))
    for op, ty, why in (("add", "s64", "add.s64"), ("inc", "u64", "inc.u64"), ("add", "f32", "add.f32"),
                        ("min", "u64", "min.u64"), ("and", "b64", "and.b64")):
        add(("rasync_cluster_" + f"{op}_{ty}", _red_async(op, ty, comment=f"red.async {why} (not in the ISA table)")))
    add(("rasync_cluster_add_u32_generic", _red_async("add", "u32", ss="")))
    add(("rasync_cluster_add_u32_no_completion", _red_async("add", "u32", completion=False)))
    add(("rasync_cluster_add_u32_gpu_scope", _red_async("add", "u32", scope="gpu")))
    add(("rasync_cluster_add_u32_release", _red_async("add", "u32", sem="release")))
    add(("rasync_cluster_add_u32_shared_cta", _red_async("add", "u32", ss=".shared::cta")))
    add(("rasync_cluster_add_u32_uni", _red_async("add", "u32", uni=True)))
    add(("rasync_cluster_add_u32_v80", _red_async("add", "u32", version="8.0")))
    add(("rasync_cluster_add_u32_v81", _red_async("add", "u32", version="8.1")))
    for ty in ("u32", "s32", "u64", "s64"):
        for sc in ("gpu", "cluster", "sys"):
            add((f"rasync_release_{sc}_global_add_{ty}", _red_async_rel(ty, sc)))
    add(("rasync_release_gpu_generic_add_u32", _red_async_rel("u32", "gpu", ss="")))
    add(("rasync_mmio_release_sys_global_add_u32", _red_async_rel("u32", "sys", mmio=True)))
    add(("rasync_mmio_release_gpu_global_add_u32", _red_async_rel("u32", "gpu", mmio=True)))
    add(("rasync_release_gpu_global_min_u32", _red_async_rel("u32", "gpu", op="min")))
    add(("rasync_release_gpu_global_add_u32_mbar", _red_async_rel("u32", "gpu", mbar=True)))
    add(("rasync_release_gpu_global_add_u32_uni", _red_async_rel("u32", "gpu", uni=True)))
    add(("rasync_release_gpu_global_add_u32_v86", _red_async_rel("u32", "gpu", version="8.6")))
    add(("rasync_relaxed_gpu_global_add_u32", _red_async_rel("u32", "gpu", sem="relaxed")))

    # ---- mmio on atom/red (ISA has it only on red.async / ld / st)
    add(probe("mmio_atom_global_add_u32", "atom.mmio.relaxed.sys.global.add.u32 (not in the ISA)", target="sm_90",
              mmio=True, sem="relaxed", scope="sys"))
    add(probe("mmio_red_global_add_u32", "red.mmio.relaxed.sys.global.add.u32 (not in the ISA)", target="sm_90",
              kind="red", mmio=True, sem="relaxed", scope="sys"))

    # ---- misc contexts and illegal spellings
    add(("misc_atom_global_add_u32_uni_divergent", _divergent("atom")))
    add(("misc_red_global_add_u32_uni_divergent", _divergent("red")))
    add(("misc_atom_global_add_u32_uni_loop", _loop("atom")))
    add(("misc_red_global_add_u32_uni_loop", _loop("red")))
    add(("misc_atom_global_add_u32_predicated", _predicated()))
    add(probe("misc_atom_global_add_u32_two_scopes", "atom.gpu.sys.global.add.u32 (two scopes)",
              spell="atom.gpu.sys.global.add.u32"))
    add(probe("misc_atom_global_local_add_u32", "atom.local.add.u32 (illegal space)", spell="atom.local.add.u32"))
    add(probe("misc_atom_const_add_u32", "atom.const.add.u32 (illegal space)", spell="atom.const.add.u32"))
    add(probe("misc_atom_relaxed_noscope", "atom.relaxed.global.add.u32 (sem without scope)", sem="relaxed"))
    add(probe("misc_red_acquire_noscope", "red.acquire.global.add.u32 (sem without scope)", kind="red", sem="acquire"))
    add(probe("misc_atom_global_add_u32_imm_dead_tid", "atom.global.add.u32 per-thread address, imm value, dead",
              val="imm", res="dead"))
    add(("misc_atom_shared_cluster_add_u32_mapa", _mapa()))

    # ---- an emulated atomic (CAS loop, generic dispatch) with no result read, then more code: its pair stays
    for kind, space, op, ty in (("atom", "generic", "add", "u64"), ("atom", "generic", "add", "f32"),
                                ("atom", "generic", "add", "f64"), ("atom", "generic", "min", "s64"),
                                ("atom", "generic", "max", "u64"), ("atom", "generic", "and", "b64"),
                                ("atom", "generic", "exch", "b64"), ("atom", "generic", "cas", "b16"),
                                ("atom", "generic", "cas", "b64"),
                                ("atom", "shared", "add", "f32"), ("atom", "shared", "add", "u64"),
                                ("atom", "shared", "min", "s64"), ("atom", "global", "add", "f16"),
                                ("red", "global", "add", "f16"), ("red", "shared", "add", "f32"),
                                ("red", "generic", "add", "f64")):
        add((f"join_{kind}_{space}_{op}_{ty}_dead_then_st", _then_store(kind, space, op, ty)))

    # ---- where the acquire fence of an emulated atomic goes (after the sequence; sm_90+ after the atomic)
    for space, op, ty, sem in (("generic", "and", "b64", "acquire"), ("generic", "and", "b64", "acq_rel"),
                               ("generic", "add", "f32", "acquire"), ("shared", "add", "f32", "acquire"),
                               ("global", "add", "f16", "acquire"), ("generic", "cas", "b64", "acquire")):
        add(probe(f"acq_emulated_{space}_{op}_{ty}_{sem}_gpu",
                  f"atom.{sem}.gpu.{space}.{op}.{ty}, result used: emulated, with an acquire fence",
                  space=space, op=op, ty=ty, sem=sem, scope="gpu"))
    add(("acq_emulated_generic_and_b64_acquire_gpu_dead_then_st",
         _then_store("atom", "generic", "and", "b64", sem="acquire", scope="gpu")))
    return P


def _then_store(kind: str, space: str, op: str, ty: str, sem: str = "", scope: str = "") -> str:
    body = atomic(kind=kind, op=op, ty=ty, space=space, res="dead", sem=sem, scope=scope)
    body.append("  st.global.u32 [%rd2], %r1;")
    cls, size = TYPES[ty]
    return kernel(f"{kind}.{space}.{op}.{ty}, result unused, then a store before ret (the loop keeps its pair)",
                  body, stride=size)


MB = ["  .shared .align 8 .b64 mb;"]


def _mapa() -> str:
    body = ["  mov.u32 %r2, s;", "  mapa.shared::cluster.u32 %r5, %r2, 1;",
            "  atom.shared::cluster.add.u32 %rv10, [%r5], %r1;", "  st.global.u32 [%rd4], %rv10;"]
    return kernel("atom.shared::cluster.add.u32 on a mapa'd (remote CTA) address", body, target="sm_90")


def _divergent(kind: str) -> str:
    body = ["  setp.lt.u32 %p1, %r1, 16;", "  @!%p1 bra DONE;"]
    body += atomic(kind=kind, addr="uni", res="used")
    body += ["DONE:"]
    return kernel(f"{kind}.global.add.u32 uniform address inside a divergent branch (tid < 16)", body)


def _loop(kind: str) -> str:
    body = ["  mov.u32 %r20, 0;", "LOOP:"]
    body += atomic(kind=kind, addr="uni", res="dead")
    body += ["  add.u32 %r20, %r20, 1;", "  ld.global.u32 %r21, [%rd4];", "  setp.lt.u32 %p2, %r20, %r21;",
             "  @%p2 bra LOOP;"]
    return kernel(f"{kind}.global.add.u32 uniform address inside a data-dependent loop", body)


def _predicated() -> str:
    body = ["  setp.lt.u32 %p1, %r1, 16;", "  @%p1 atom.global.add.u32 %rv10, [%rd2], %r1;",
            "  st.global.u32 [%rd4], %rv10;"]
    return kernel("@p atom.global.add.u32 uniform address under a predicate", body)


def _red_async(op: str, ty: str, ss: str = ".shared::cluster", completion: bool = True, scope: str = "cluster",
               sem: str = "relaxed", uni: bool = False, version: str = "9.0", comment: str | None = None) -> str:
    cls, size = TYPES[ty]
    body = ["  mov.u32 %r2, s;", f"  mad.lo.u32 %r3, %r1, {size}, %r2;",
            "  mov.u32 %r4, mb;"]
    regs = _val_regs(ty, 1, 0)
    body += _make_values(ty, regs, uniform=False)
    if ss:
        a, m = ("[s]" if uni else "[%r3]"), "[%r4]"
    else:
        body += ["  cvt.u64.u32 %rd6, %r3;", "  cvta.shared.u64 %rd6, %rd6;", "  cvt.u64.u32 %rd7, %r4;",
                 "  cvta.shared.u64 %rd7, %rd7;"]
        a, m = "[%rd6]", "[%rd7]"
    q = f"red.async.{sem}.{scope}{ss}" + (".mbarrier::complete_tx::bytes" if completion else "") + f".{op}.{ty}"
    body.append(f"  {q} {a}, {regs[0]}, {m};")
    c = comment or f"{q}" + (" uniform address" if uni else "")
    if comment:
        c = f"{comment}: {q}"
    return kernel(c, body, version=version, target="sm_90", stride=size, extra_decl=MB)


def _red_async_rel(ty: str, scope: str, ss: str = ".global", mmio: bool = False, op: str = "add",
                   mbar: bool = False, uni: bool = False, version: str = "9.0", sem: str = "release") -> str:
    cls, size = TYPES[ty]
    regs = _val_regs(ty, 1, 0)
    body = _make_values(ty, regs, uniform=False)
    if ss:
        a = "[%rd2]" if uni else "[%rd4]"
    else:
        body.append("  add.s64 %rd5, %rd1, %rd3;")
        a = "[%rd5]"
    q = "red.async" + (".mmio" if mmio else "") + f".{sem}.{scope}{ss}" + \
        (".mbarrier::complete_tx::bytes" if mbar else "") + f".{op}.{ty}"
    body.append(f"  {q} {a}, {regs[0]}" + (", [mb]" if mbar else "") + ";")
    return kernel(q + (" uniform address" if uni else ""), body, version=version, target="sm_100",
                  stride=size, extra_decl=MB if mbar else ())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default=str(OUT))
    ap.add_argument("--clean", action="store_true", help="remove *.ptx in --out that this script no longer makes")
    a = ap.parse_args(argv)
    out = Path(a.out)
    out.mkdir(parents=True, exist_ok=True)
    files = corpus()
    names = [n for n, _ in files]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        raise SystemExit(f"duplicate probe names: {sorted(dup)}")
    wanted = set()
    for n, text in files:
        p = out / f"{n}.ptx"
        wanted.add(p.name)
        if not p.exists() or p.read_text() != text:
            p.write_text(text)
    if a.clean:
        for p in out.glob("*.ptx"):
            if p.name not in wanted:
                p.unlink()
    print(f"{len(files)} probes in {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
