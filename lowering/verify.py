"""The Ori IR verifier: what every phase must leave true, checked from the operation schema (ori_schema.py).

- every instruction's class is one its operation is declared with, and pseudo-ops (PSEUDO) are class 130;
- its attribute record is the one the operation declares, with values among the declared choices;
- a TERMINATOR ends its block (a guarded bra may precede a final unguarded one); a branch's target is a successor of its block; successors name blocks of the
  function and predecessor lists agree with them; block labels and function names are unique.
Run after every phase under `--verify-each` (and by the tests, PYLOWER_VERIFY_EACH=1).
"""
from __future__ import annotations

from . import ptx_ast as A
from .ori import Function, Module
from .ori_schema import OPS, TERMINATOR, field_problems, opdef


class VerifyError(Exception):
    def __init__(self, problems: list[str]):
        super().__init__("Ori IR verifier:\n  " + "\n  ".join(problems))
        self.problems = problems


_DECLARED: dict[str, set[int]] = {}
for _o in OPS:
    _DECLARED.setdefault(_o.name, set()).add(_o.cls)


def _declared_classes(opcode: str) -> set[int]:
    return _DECLARED.get(opcode, set())


def _two_way_branch(instrs, k: int) -> bool:
    """`@p bra X; bra Y` ending a block (phase 42's retry blocks): the guarded branch is not the end."""
    return k == len(instrs) - 2 and instrs[k].opcode == "bra" and instrs[k].guard is not None \
        and instrs[-1].opcode == "bra" and instrs[-1].guard is None


def verify_function(fn: Function) -> list[str]:
    out: list[str] = []
    labels = [b.label for b in fn.blocks]
    if len(set(labels)) != len(labels):
        dup = sorted({x for x in labels if labels.count(x) > 1})
        out.append(f"{fn.name}: duplicate block labels {dup}")
    known = set(labels)
    preds: dict[str, set[str]] = {b.label: set() for b in fn.blocks}
    for b in fn.blocks:
        where = f"{fn.name}: block {b.label}"
        for s in b.succs:
            if s not in known:
                out.append(f"{where}: successor {s} is not a block of the function")
            else:
                preds[s].add(b.label)
        for k, ins in enumerate(b.instrs):
            at = f"{where}, instruction {k} ({ins.name}, line {ins.line})"
            d = opdef(ins.opcode, ins.op)
            declared = _declared_classes(ins.opcode)
            if declared and ins.op not in declared:
                out.append(f"{at}: class {ins.op}, its operation is declared with class {sorted(declared)}")
            if type(ins.attrs) is not d.attrs:
                out.append(f"{at}: attributes {type(ins.attrs).__name__}, declared {d.attrs.__name__}")
            else:
                out.extend(f"{at}: {p}" for p in field_problems(ins.attrs))
            if d.has(TERMINATOR) and k != len(b.instrs) - 1 and not _two_way_branch(b.instrs, k):
                out.append(f"{at}: terminator before the end of its block")
            if ins.opcode == "bra" and ins.operands and type(ins.operands[0]) is A.Sym \
                    and ins.operands[0].name in known and ins.operands[0].name not in b.succs:
                out.append(f"{at}: branch target {ins.operands[0].name} is not a successor")
    for b in fn.blocks:
        if set(b.preds) != preds[b.label]:
            out.append(f"{fn.name}: block {b.label}: predecessors {sorted(b.preds)}, edges say {sorted(preds[b.label])}")
    return out


def verify_module(m: Module) -> None:
    problems: list[str] = []
    names = [f.name for f in m.functions]
    if len(set(names)) != len(names):
        problems.append(f"duplicate functions {sorted({x for x in names if names.count(x) > 1})}")
    for f in m.functions:
        problems += verify_function(f)
    if problems:
        raise VerifyError(problems)
