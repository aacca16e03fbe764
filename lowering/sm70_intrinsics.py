"""ptxas's sm70 warp-sync intrinsic names (isSM70WarpSync): the `__cuda_sm70_*` routines the CUDA headers
use for the warp-synchronous builtins (votesync_ballot/all/any/uni, shflsync_idx/up/down/bfly,
matchsync_{any,all}_b{32,64}, warpsync, barrier_{sync,arrive,red_*}_{0..15}[_cnt]) and the reduxsync ones.

ptxas does not expand a PTX `call` to one of them: it stays an extern call (so it needs -c), but the call
is a warp-synchronous site, listed in EIATTR_COOP_GROUP_INSTR_OFFSETS with mask 0xffffffff. ptxas
recognizes them by prefix (probed: `__cuda_sm70_votesync_foo` counts, `__cuda_sm70_votesync` does not;
`__cuda_sm70_warpsyncX` counts).
"""
from __future__ import annotations

SM70_WARP_SYNC_PREFIXES = (
    "__cuda_sm70_warpsync", "__cuda_sm70_votesync_", "__cuda_sm70_matchsync_", "__cuda_sm70_shflsync_",
    "__cuda_sm70_barrier_", "__cuda_reduxsync_",
)


def is_sm70_warp_sync(name: str) -> bool:
    return name.startswith(SM70_WARP_SYNC_PREFIXES)


# The seed's isSM70WarpSync (sub_A9A410) tests only these three prefixes; probing ptxas 13.0.88 showed the
# call-site handling above also covers shflsync_, barrier_ and reduxsync (SM70_WARP_SYNC_PREFIXES).
SEED_PREFIXES = ("__cuda_sm70_warpsync", "__cuda_sm70_votesync_", "__cuda_sm70_matchsync_")


def intrinsic_names() -> list[str]:
    """The sm70 intrinsic block's names as the seed lists them (vote/shfl/match/warpsync, the 160 barrier
    entries: {arrive, sync, red_and, red_or, red_popc} x {0..15} x {plain, _cnt}) and the 0x01-0x0F reduxsync
    emulation routines. Used by tests and by tools that want to recognise a call by exact name."""
    names = [f"__cuda_sm70_votesync_{m}" for m in ("all", "any", "ballot", "uni")]
    names += [f"__cuda_sm70_shflsync_{m}{p}" for m in ("idx", "up", "down", "bfly") for p in ("", "_pred")]
    names += [f"__cuda_sm70_matchsync_{m}_b{w}" for m in ("any", "all") for w in (32, 64)]
    names.append("__cuda_sm70_warpsync")
    names += [f"__cuda_sm70_barrier_{op}_{i}{c}" for op in ("arrive", "sync", "red_and", "red_or", "red_popc")
              for i in range(16) for c in ("", "_cnt")]
    names += [f"__cuda_reduxsync_{t}" for t in ("b32_and", "b32_or", "b32_xor", "f32_max", "f32_min",
                                                 "f32_max_abs", "f32_min_abs", "f32_max_NaN", "f32_min_NaN",
                                                 "s32_add", "s32_max", "s32_min", "u32_add", "u32_max", "u32_min")]
    return names
