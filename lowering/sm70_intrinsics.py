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
