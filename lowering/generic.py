"""Ori class of the instructions that are not synchronization: a table by PTX stem, then by type."""
from __future__ import annotations

from .ori import ORI_CLASSES

_BY_STEM = {
    "ld": "load", "ldu": "load", "ldmatrix": "load", "prefetch": "load", "prefetchu": "load",
    "st": "store", "stmatrix": "store",
    "bra": "branch", "brx": "branch", "call": "call", "ret": "return", "exit": "exit", "trap": "exit",
    "tex": "texture", "tld4": "texture", "txq": "texture", "suld": "texture", "sust": "texture",
    "sured": "texture", "suq": "texture",
    "mma": "mma", "wmma": "mma", "wgmma": "mma", "tcgen05": "mma", "movmatrix": "mma",
    "mov": "move", "cvt": "convert", "cvta": "convert", "isspacep": "convert", "mapa": "convert",
    "getctarank": "convert",
    "brkpt": "control", "pmevent": "control", "setmaxnreg": "control", "alloca": "control",
    "stacksave": "control", "stackrestore": "control", "createpolicy": "misc", "applypriority": "misc",
    "discard": "misc", "istypeof": "misc", "multimem": "misc", "tensormap": "misc",
}
_FLOAT_TYPES = {".f16", ".f16x2", ".bf16", ".bf16x2", ".f32", ".f64", ".e4m3x2", ".e5m2x2"}


_CACHE: dict[tuple, int] = {}


def ori_class(opcode: str, mods: tuple[str, ...]) -> int:
    key = (opcode, mods)
    r = _CACHE.get(key)
    if r is None:
        r = _CACHE[key] = _ori_class(opcode, mods)
    return r


def _ori_class(opcode: str, mods: tuple[str, ...]) -> int:
    cls = _BY_STEM.get(opcode)
    if cls is None:
        cls = "fpu" if any(m in _FLOAT_TYPES for m in mods) else "alu"
    return ORI_CLASSES[cls]
