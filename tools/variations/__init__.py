"""Variation tables: generators of small PTX variations, each compiled with the real ptxas and with pylower, printed as
a table of sync views (the rows docs/findings report as "rows matched / rows measured").

    python -m pylower.tools.variations.<name> [targets...]

Each module defines `variations()` -> {row name: PTX text with a `{target}` placeholder} and a default target list;
`table.run` compiles every row (ptxas needs to be installed) and prints ptxas's and pylower's sequences and the fit.
"""
