"""Output formats: compiler-style text, JSON, SARIF 2.1.0."""
from __future__ import annotations

import json

from .finding import CHECKS, Finding

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
DOCS = "https://github.com/pylower/pylower/blob/main/docs/lint/"


def text(findings: list[Finding]) -> str:
    out = []
    for f in findings:
        out.append(f"{f.file}:{f.line}:{f.col}: warning: {f.message} [{f.check}]")
        for n in f.notes:
            out.append(f"{f.file}:{n.line}:{n.col}: note: {n.message}")
    return "\n".join(out) + ("\n" if out else "")


def as_json(findings: list[Finding], files: list[str]) -> str:
    return json.dumps({
        "files": files,
        "findings": [{"check": f.check, "file": f.file, "line": f.line, "col": f.col, "function": f.function,
                      "message": f.message,
                      "notes": [{"file": f.file, "line": n.line, "col": n.col, "message": n.message} for n in f.notes]}
                     for f in findings],
    }, indent=2) + "\n"


def _location(file: str, line: int, col: int) -> dict:
    return {"physicalLocation": {"artifactLocation": {"uri": file},
                                 "region": {"startLine": max(line, 1), "startColumn": max(col, 1)}}}


def sarif(findings: list[Finding], ids: list[str]) -> str:
    rules = [{"id": c.id, "name": "".join(w.capitalize() for w in c.id.split("-")),
              "shortDescription": {"text": c.summary},
              "helpUri": DOCS + c.id + ".md",
              "defaultConfiguration": {"level": "warning"}} for c in (CHECKS[i] for i in ids)]
    index = {r["id"]: n for n, r in enumerate(rules)}
    results = []
    for f in findings:
        r = {"ruleId": f.check, "level": "warning", "message": {"text": f.message},
             "locations": [_location(f.file, f.line, f.col)]}
        if f.check in index:
            r["ruleIndex"] = index[f.check]
        if f.notes:
            r["relatedLocations"] = [dict(_location(f.file, n.line, n.col), id=k, message={"text": n.message})
                                     for k, n in enumerate(f.notes)]
        results.append(r)
    doc = {"$schema": SARIF_SCHEMA, "version": "2.1.0",
           "runs": [{"tool": {"driver": {"name": "pylower-lint", "informationUri": DOCS + "README.md",
                                         "rules": rules}},
                     "columnKind": "unicodeCodePoints",
                     "results": results}]}
    return json.dumps(doc, indent=2) + "\n"
