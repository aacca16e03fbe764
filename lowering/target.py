"""The target table: every architecture ptxas 13.0.88 accepts, as one immutable object per name.

Every stage reads the Target; none mutates it. Feature bits are what the probes of ptxas showed
(see docs/findings/), not what the PTX ISA text alone says.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from .diagnostics import PtxError

# Tiers as the seed's handlers test them (SM > 69 / > 79 / > 89) plus Blackwell.
TIERS = ("turing", "ampere", "ada", "hopper", "blackwell")

# Families for 'f' variants: sm_XYf runs on sm_XZ with Z >= Y in the same family.
_FAMILY = {100: 100, 103: 100, 110: 110, 120: 120, 121: 120}

BASE_SMS = (75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121)
# Which base SMs have 'a' / 'f' variants in ptxas 13.0.88 (--help "Allowed values").
_HAS_A = {90, 100, 103, 110, 120, 121}
_HAS_F = {100, 103, 110, 120, 121}

# The targets the reference harness compiles for by default.
DEFAULT_REFERENCE_TARGETS = ("sm_75", "sm_80", "sm_86", "sm_89", "sm_90", "sm_90a", "sm_100a", "sm_120")

# Highest PTX ISA version ptxas 13.0.88 accepts ("Unsupported .version 9.1; current version is '9.0'").
MAX_PTX_VERSION = (9, 0)


@dataclass(frozen=True)
class Target:
    name: str          # "sm_90a"
    sm: int            # 90
    suffix: str        # "", "a" or "f"

    @property
    def family(self) -> int:
        return _FAMILY.get(self.sm, self.sm)

    @property
    def tier(self) -> str:
        if self.sm >= 100:
            return "blackwell"
        if self.sm >= 90:
            return "hopper"
        if self.sm == 89:
            return "ada"
        if self.sm >= 80:
            return "ampere"
        return "turing"

    @property
    def arch_specific(self) -> bool:
        return self.suffix == "a"

    @property
    def family_specific(self) -> bool:
        return self.suffix in ("a", "f")

    # Feature bits (ARCHITECTURE.md). Kept as properties over sm/suffix so they stay one table.
    @property
    def has_redux(self) -> bool:
        return self.sm >= 80

    @property
    def has_redux_float(self) -> bool:
        # redux.sync.{min,max}.f32: sm_100a/100f/103a/103f only (probes warp/redux_sync_*_f32)
        return self.family == 100 and self.suffix in ("a", "f")

    @property
    def has_mbarrier(self) -> bool:
        return self.sm >= 80

    @property
    def has_expect_tx(self) -> bool:
        return self.sm >= 90

    @property
    def has_cluster(self) -> bool:
        return self.sm >= 90

    @property
    def has_tma(self) -> bool:
        return self.sm >= 90

    @property
    def has_fence_opcodes(self) -> bool:
        return self.sm >= 100

    def __str__(self) -> str:
        return self.name


def all_target_names() -> list[str]:
    names = []
    for sm in BASE_SMS:
        names.append(f"sm_{sm}")
        if sm in _HAS_A:
            names.append(f"sm_{sm}a")
        if sm in _HAS_F:
            names.append(f"sm_{sm}f")
    return names


_NAME_RE = re.compile(r"^(?:sm|compute|lto)_(\d+)([af]?)$")


def parse_target(name: str) -> Target:
    """--arch value -> Target; unknown names are an error with ptxas's list."""
    m = _NAME_RE.match(name.strip())
    if not m or name.strip().replace("compute_", "sm_").replace("lto_", "sm_") not in all_target_names():
        raise PtxError(f"Value '{name}' is not defined for option 'gpu-name'")
    sm, suffix = int(m.group(1)), m.group(2)
    return Target(f"sm_{sm}{suffix}", sm, suffix)


def target_accepts(arch: Target, ptx_target: Target) -> bool:
    """Can PTX with `.target ptx_target` be compiled for `arch`? (ptxas --help, gpu-name.)"""
    if ptx_target.suffix == "a":
        return arch.sm == ptx_target.sm and arch.suffix == "a"
    if ptx_target.suffix == "f":
        return arch.family == ptx_target.family and arch.sm >= ptx_target.sm and arch.suffix in ("", "a", "f")
    return arch.sm >= ptx_target.sm
