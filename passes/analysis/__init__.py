"""Analyses over the Ori IR used by phases and ISel: CFG orders and dominators, register def/use and
liveness (bit vectors on bitarray), and warp-uniformity (divergence)."""
