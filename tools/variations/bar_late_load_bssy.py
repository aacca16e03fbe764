"""A region after a block's CTA barriers (CUB BlockRadixSort's scan: `BAR; SHFL.UP x5; lane 31 stores; BAR;
if (warp == 0) {..}`) while global loads of the block are in flight across it (their results read only after the
region's join): whether ptxas opens the region above the barriers (`LDG BSSY BAR .. BAR`) or after the last one
(`LDG.. BAR .. BAR BSSY`). Rows are real kernels: the fresh n39_* corpus (pairs whose values are loaded and read
after the sort, made from the index, or read before the sort; hand-written block code with one or three loads
read after the region) and earlier corpus sorts (keys only, 64-bit keys on a bit range, striped pairs, guarded
u8 keys with float values) (docs/findings/convergence.md, helper nvbar39, stop 39)."""
from __future__ import annotations

import re
from pathlib import Path

from pylower.tools.variations.table import run

TARGETS = ["sm_75", "sm_80", "sm_90", "sm_100a"]
KEEP = frozenset({"BSSY", "BSYNC", "BAR", "BMOV"})

_CORPUS = Path(__file__).resolve().parents[2] / "tests" / "corpus" / "nvcc"
ROWS = {
    "pairs_loaded_2": ("n39_radix_pairs", "n39_pairs_loaded"),
    "pairs_loaded_4_blocked": ("n39_radix_pairs", "n39_pairs_loaded4"),
    "pairs_f32_u16_256": ("n39_radix_pairs", "n39_pairs_f32_u16"),
    "pairs_index_values": ("n39_radix_pairs", "n39_pairs_iota"),
    "pairs_values_read_before": ("n39_radix_pairs", "n39_pairs_tagged"),
    "hand_one_late_load": ("n39_block_late_loads", "n39_late_one"),
    "hand_scan_one_late_load": ("n39_block_late_loads", "n39_late_scan"),
    "hand_scan_three_late_loads": ("n39_block_late_loads", "n39_late_three"),
    "keys_only": ("cub_block_radix_sort", "block_radix_sort_keys"),
    "pairs_u64_bit_range": ("cub_block_radix_sort", "block_radix_sort_pairs_bits"),
    "pairs_striped_128": ("b27_cub_block", "b27_cub_radix_pairs"),
    "pairs_u8_f32_guarded": ("j34_cub_blocks", "j34_sort_pairs_u8_f32"),
}


def _kernel(stem: str, name: str) -> str:
    """One entry of a corpus PTX file with the file's header (its module-scope declarations), `{target}`."""
    text = (_CORPUS / f"{stem}.ptx").read_text()
    first = re.search(r"^\s*(//\s*\.globl|\.visible\s+\.entry|\.entry)", text, re.M)
    head = text[:first.start()] if first else ""
    m = re.search(r"^\.visible \.entry " + re.escape(name) + r"\(.*?^}", text, re.M | re.S)
    head = re.sub(r"^\.target\s+\S+", ".target {target}", head, count=1, flags=re.M)
    return head + "\n" + m.group(0) + "\n"


def variations() -> dict[str, str]:
    return {row: _kernel(*src) for row, src in ROWS.items()}


if __name__ == "__main__":
    raise SystemExit(run(variations(), TARGETS, KEEP))
