"""pylower: a ptxas-style PTX backend (PTX -> Ori IR -> sync phases -> SASS + EIATTRs)."""
__version__ = "0.1.0"
