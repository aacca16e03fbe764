"""Memory barriers and fences: membar.{cta,gl,sys}, membar.proxy.alias (ptxas's membar handler sub_4DB410)
and fence: thread fences (.sc/.acq_rel/.acquire/.release + scope), .sync_restrict and .mbarrier_init
(op_restrict) forms, and fence.proxy (.alias, .async[.space], and the uni-directional
.tensormap::generic / .async::generic forms).

Validation follows ptxas 13.0.88 (docs/findings/fence.md, tests/corpus/probes/fence): ptxas reports every
problem of the line, in a fixed order; feature gates compare against the target and the PTX version. Each
fence becomes one Ori class-130 instruction keeping its PTX spelling, with normalized attributes for ISel:
`form` (thread / alias / async / tensormap / restrict / mbarrier_init), `sem`, `scope`, `space`.
"""
from __future__ import annotations

from . import ptx_ast as A
from .handlers import handler
from .ori import ORI_CLASSES

_SEMS = (".sc", ".acq_rel", ".acquire", ".release")
_SCOPES = (".cta", ".cluster", ".gpu", ".sys")
_MEMBAR_LEVELS = {".cta": "cta", ".gl": "gpu", ".sys": "sys"}
_RESTRICTS = (".sync_restrict::shared::cluster", ".sync_restrict::shared::cta")
_PROXYKINDS = (".alias", ".async", ".tensormap::generic", ".async::generic")
_SPACES = (".global", ".shared::cta", ".shared::cluster", ".shared")
_UNIDIRECTIONAL = (".tensormap::generic", ".async::generic")
# modifiers ptxas knows but fence.proxy / membar.proxy may reject as illegal (the rest are unknown)
_KNOWN = frozenset(_SEMS + _SCOPES + tuple(_MEMBAR_LEVELS) + _RESTRICTS + _PROXYKINDS + _SPACES +
                   (".proxy", ".mbarrier_init", ".tensormap"))

# Feature gates: (kind, subject, target SM or PTX version), checked in this order. "target" says
# "<subject> requires .target sm_N or higher", "version" "<subject> requires PTX ISA .version X.Y or later",
# "instr_target" "<subject> not supported on .target '<target>'".
_GATES = {
    "cluster_scope": (("target", "Feature '.cluster scope'", 90), ("version", "Feature '.cluster scope'", (7, 8))),
    "sync_restrict": (("target", "Feature '.sync_restrict'", 90), ("version", "Feature '.sync_restrict'", (8, 6))),
    "mbarrier_init": (("target", "Feature '.op_restrict'", 90), ("version", "Feature '.op_restrict'", (8, 0)),
                      ("version", "Modifier '.mbarrier_init'", (8, 0)), ("target", "Modifier '.mbarrier_init'", 90)),
    "async": (("target", "Modifier '.async'", 90), ("version", "Modifier '.async'", (8, 0))),
    "shared::cluster": (("target", "Feature '::cluster'", 90),),
    "alias": (("version", "Modifier '.alias'", (7, 5)), ("version", "Feature '{stem}.proxy'", (7, 5))),
    "unidirectional": (("version", "Feature 'fence.proxy with unidirection proxy fence'", (8, 3)),
                       ("instr_target", "Instruction 'fence.proxy with unidirection proxy fence'", 90)),
    "tensormap": (("target", "Modifier '.tensormap'", 90),),
}
# The order and scope an op-restricted / sync-restricted fence must have.
_RESTRICTED = {
    ".mbarrier_init": (".release", ".cluster"),
    ".sync_restrict::shared::cta": (".release", ".cluster"),
    ".sync_restrict::shared::cluster": (".acquire", ".cluster"),
}
# fence.proxy.async::generic: the sync_restrict each direction needs
_ASYNC_GENERIC_RESTRICT = {".acquire": ".sync_restrict::shared::cluster", ".release": ".sync_restrict::shared::cta"}
_TENSORMAP_SIZE = 128
# Fences ptxas never predicates: a divergent region holding one stays a branch with BSSY/BSYNC (probed on
# sm_80/sm_90: membar, .sc/.acq_rel, fence.proxy.{alias,async*,tensormap}); the acquire/release thread
# fences, the sync_restrict forms and fence.mbarrier_init are if-converted like ordinary instructions.
_NOT_PREDICATED = {"alias", "async", "tensormap", ("thread", "sc"), ("thread", "acq_rel")}


class _Msgs(list):
    """The messages of one instruction, in ptxas's order."""

    def __init__(self, ins, ctx):
        super().__init__()
        self.ins, self.ctx = ins, ctx

    def gate(self, name: str, stem: str = "fence") -> None:
        ctx = self.ctx
        for kind, subject, need in _GATES[name]:
            subject = subject.format(stem=stem)
            if kind == "version":
                if ctx.version < need:
                    self.append(f"{subject} requires PTX ISA .version {need[0]}.{need[1]} or later")
            elif ctx.target.sm < need:
                self.append(f"{subject} requires .target sm_{need} or higher" if kind == "target"
                            else f"{subject} not supported on .target '{ctx.target.name}'")

    def done(self) -> None:
        if self:
            e = self.ctx.error(self[0], self.ins)
            e.more = tuple(self[1:])
            raise e


def _pick(mods, group, msgs: _Msgs, duplicate: str):
    """The last modifier of `group` in mods; more than one gives ptxas's parse-time message."""
    found = [m for m in mods if m in group]
    if len(found) > 1:
        msgs.append(duplicate.format(first=found[0], last=found[-1]))
    return found[-1] if found else None


def _check_restricted(mod: str, sem, scope, msgs: _Msgs) -> None:
    need_sem, need_scope = _RESTRICTED[mod]
    pairs = ((sem, need_sem, "order"), (scope, need_scope, "scope"))
    # ptxas first says what is missing, then what each present (or missing: '') one cannot be combined with
    msgs.extend(f"Modifier '{mod}' requires modifier '{what}'" for have, _n, what in pairs if have is None)
    msgs.extend(f"Modifier '{mod}' cannot be combined with modifier '{have or ''}'" for have, need, _w in pairs
                if have is None or have != need)


def _strip(m):
    return m[1:] if m else None


def is_membar_class(ins) -> bool:
    """An sc / acq_rel thread fence (membar.<level>, fence.sc/.acq_rel/.<scope>): ptxas does not unroll a loop
    holding one (loop_membar_*; probed: fence.gpu too, while fence.acquire/.release and fence.proxy.* loops
    are unrolled)."""
    return ins.op == ORI_CLASSES["sync"] and ins.opcode in ("membar", "fence") and ins.attrs.form == "thread" \
        and ins.attrs.sem in ("sc", "acq_rel")


def _fence(ctx, ins, form: str, **attrs):
    if form in _NOT_PREDICATED or (form, attrs.get("sem")) in _NOT_PREDICATED:
        attrs["nopred"] = 1
    return [ctx.instr(ORI_CLASSES["sync"], ins, form=form, **attrs)]


@handler("membar")
def lower_membar(ins: A.Instruction, ctx):
    mods = ins.mods
    msgs = _Msgs(ins, ctx)
    if ins.operands:
        msgs.append("Arguments mismatch for instruction 'membar'")
        msgs.done()
    if ".proxy" in mods:
        kind = next((m for m in mods if m in (".alias", ".async")), None)
        if kind == ".alias":
            msgs.gate("alias", "membar")
        elif kind == ".async":
            msgs.gate("async")
            msgs.append("Illegal modifier '.async' for instruction 'membar.proxy'")
        else:
            msgs.append(".proxykind modifier required for instruction 'membar.proxy'")
        msgs.done()
        return _fence(ctx, ins, "alias")
    for m in mods:
        if m not in _MEMBAR_LEVELS:
            msgs.append(f"Illegal modifier '{m}' for instruction 'membar'")     # unknown ones: build.py
    levels = [m for m in mods if m in _MEMBAR_LEVELS]
    if len(levels) > 1:
        msgs.append("Multiple scope modifiers specified")
    elif not levels and not msgs:
        msgs.append("Membar level required for instruction 'membar'")
    msgs.done()
    return _fence(ctx, ins, "thread", sem="sc", scope=_MEMBAR_LEVELS[levels[-1]])


@handler("fence")
def lower_fence(ins: A.Instruction, ctx):
    if ".proxy" in ins.mods:
        return _lower_fence_proxy(ins, ctx)
    mods = ins.mods
    msgs = _Msgs(ins, ctx)
    if ins.operands:
        msgs.append("Arguments mismatch for instruction 'fence'")
        msgs.done()
    # modifiers outside ptxas's vocabulary were reported by the builder ("Unknown modifier") and dropped
    illegal = [m for m in mods if m not in _KNOWN]
    msgs.extend(f"Illegal modifier '{m}' for instruction 'fence'" for m in illegal)
    sem = _pick(mods, _SEMS, msgs, "Duplicate {last} modifier")
    scope = _pick(mods, _SCOPES, msgs, "Multiple scope modifiers specified")
    restrict = next((m for m in mods if m in _RESTRICTS or m == ".mbarrier_init"), None)
    if restrict == ".mbarrier_init":
        msgs.gate("mbarrier_init")
    elif restrict is not None:
        msgs.gate("sync_restrict")
    if restrict is not None:
        _check_restricted(restrict, sem, scope, msgs)
    if scope is None:
        msgs.append("Scope modifier required for instruction 'fence'")
        order = sem or next((m for m in illegal if m in (".relaxed", ".weak", ".volatile")), None)
        msgs.append(f"Modifier '{order or '.acq_rel'}' requires scope with 'fence' instruction")
    elif scope == ".cluster":
        msgs.gate("cluster_scope")
    msgs.done()
    if restrict == ".mbarrier_init":
        return _fence(ctx, ins, "mbarrier_init")
    if restrict is not None:
        return _fence(ctx, ins, "restrict", sem=_strip(sem), space=restrict.split("::", 1)[1])
    return _fence(ctx, ins, "thread", sem=_strip(sem) or "acq_rel", scope=_strip(scope))


def _lower_fence_proxy(ins: A.Instruction, ctx):
    mods = ins.mods
    msgs = _Msgs(ins, ctx)
    ops = ins.operands
    # only .tensormap::generic takes operands, `[addr], size` (whether its direction wants them is checked
    # later); any other shape is a parse-time mismatch reported alone
    if ops and not (".tensormap::generic" in mods and len(ops) == 2 and type(ops[0]) is A.Addr
                    and type(ops[1]) is A.Imm):
        msgs.append("Arguments mismatch for instruction 'fence.proxy'")
        msgs.done()
    for m in mods:
        if m not in _KNOWN:      # (unknown ones were reported by the builder)
            msgs.extend(["State space incorrect for instruction 'fence.proxy'"] * 2 if m in (".local", ".const", ".param")
                        else [f"Illegal modifier '{m}' for instruction 'fence.proxy'"])
    kind = _pick(mods, _PROXYKINDS, msgs, "Multiple {first} modifiers specified")
    sem = _pick(mods, _SEMS, msgs, "Duplicate {last} modifier")
    scope = _pick(mods, _SCOPES, msgs, "Multiple scope modifiers specified")
    restrict = next((m for m in mods if m in _RESTRICTS), None)
    spaces = [m for m in mods if m in _SPACES]
    legal: tuple = ()
    if kind == ".alias":
        msgs.gate("alias")
    elif kind == ".async":
        msgs.gate("async")
        legal = _SPACES
        if len(spaces) > 1:
            msgs.append("Unexpected number of state spaces specified in instruction 'fence.proxy'")
        elif spaces == [".shared"]:
            msgs.append("State space incorrect for instruction 'fence.proxy'")
        elif spaces == [".shared::cluster"]:
            msgs.gate("shared::cluster")
    elif kind is not None:
        msgs.gate("unidirectional")
        legal = (".acquire", ".release") + _SCOPES + (_RESTRICTS if kind == ".async::generic" else ())
    else:
        msgs.append(".proxykind modifier required for instruction 'fence.proxy'")
    for m in mods:
        if m in _KNOWN and m not in legal and m not in _PROXYKINDS and m != ".proxy":
            msgs.append(f"Illegal modifier '{m}' for instruction 'fence.proxy'")
            if m == ".tensormap":           # ptxas checks its target gate between two reports
                msgs.gate("tensormap")
                msgs.append(f"Illegal modifier '{m}' for instruction 'fence.proxy'")
    if kind in _UNIDIRECTIONAL:
        sem = sem if sem in (".acquire", ".release") else None
        if sem is None and not any(m in (".sc", ".acq_rel") for m in mods):
            msgs.append(".acquire/.release modifier required for instruction 'fence.proxy'")
        if kind == ".tensormap::generic":
            _check_tensormap_operands(sem, ops, msgs)
            if sem is not None and scope is None:
                msgs.append(f"Modifier '{sem}' requires scope with 'fence.proxy' instruction")
        else:
            if scope != ".cluster":
                msgs.append(".cluster modifier required for instruction 'fence.proxy'")
            need = _ASYNC_GENERIC_RESTRICT.get(sem)
            if need is not None and restrict != need:
                msgs.append(f"{need} modifier required for instruction 'fence.proxy'")
            if restrict is not None:
                msgs.gate("sync_restrict")
        if scope == ".cluster":
            msgs.gate("cluster_scope")
    msgs.done()
    if kind == ".alias":
        return _fence(ctx, ins, "alias")
    if kind == ".async":
        return _fence(ctx, ins, "async", space=_strip(spaces[0]) if spaces else "shared::cluster")
    if kind == ".tensormap::generic":
        return _fence(ctx, ins, "tensormap", sem=_strip(sem), scope=_strip(scope))
    return _fence(ctx, ins, "restrict", sem=_strip(sem), space=restrict.split("::", 1)[1])


def _check_tensormap_operands(sem, ops, msgs: _Msgs) -> None:
    if sem == ".release" and ops:
        msgs.append(".release modifier required for instruction 'fence.proxy' with 0 arguments")
    elif sem == ".acquire":
        if len(ops) != 2:
            msgs.append(".acquire modifier required for instruction 'fence.proxy' with 2 arguments")
        elif ops[1].value != _TENSORMAP_SIZE:
            msgs.append(f"Argument 1 of instruction 'fence.proxy': unexpected value '{ops[1].text}', "
                        f"expected to be {_TENSORMAP_SIZE}")
