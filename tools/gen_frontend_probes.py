"""Generated front-end probes: operand kind / size / state space / count variations of every sync family,
each compiled by ptxas 13.0.88 for several targets, stored as compact reference data
(tests/frontend_forms.json.gz) that tests/test_frontend_errors.py holds pylower to.

    python -m pylower.tools.gen_frontend_probes              # ask ptxas, rewrite the reference
    python -m pylower.tools.gen_frontend_probes --compare    # pylower against the stored reference (figures)
    python -m pylower.tools.gen_frontend_probes --vocabulary # re-check lowering/ptx_modifiers.MODIFIERS

Each form is one instruction (or a few lines) in a fixed kernel (KERNEL below) that declares registers of
every width, a symbol in each state space and a label. A form's reference is ptxas's error messages, each with
its line relative to the form's first line (warnings and infos are not kept): [] means accepted.
"""
from __future__ import annotations

import argparse
import gzip
import io
import itertools
import json
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REFERENCE = ROOT / "tests" / "frontend_forms.json.gz"      # not under tests/reference: not a corpus file
TARGETS = ("sm_75", "sm_80", "sm_90", "sm_90a", "sm_100a", "sm_120")
VERSION = "8.7"

KERNEL = """.version {version}
.target {target}
.address_size 64
.global .align 16 .b8 gsym[64];
.shared .align 16 .b8 ssym[64];
.shared .align 8 .b64 sbar;
.global .align 8 .b64 gbar;
.visible .entry k(.param .u64 p)
{{
.reg .pred %p<4>; .reg .b16 %h<4>; .reg .b32 %r<10>; .reg .b64 %rd<10>; .reg .b128 %q<4>; .reg .f32 %f<4>;
.local .align 16 .b8 lsym[64];
.local .align 8 .b64 lbar;
{body}
$L_end:
ret;
}}
"""
FIRST_LINE = KERNEL.split("\n").index("{body}") + 1        # the form's first line in the file (1-based)


def _forms_barrier():
    for op in ("bar.sync", "bar.arrive", "barrier.sync", "barrier.sync.aligned", "barrier.arrive", "bar.red.popc.u32",
               "bar.red.and.pred", "bar.red.or.pred"):
        red = ".red." in op
        dst = ("%r1, " if op.endswith(".u32") else "%p1, ") if red else ""
        src = ", %p2" if red else ""
        for ids in ("0", "15", "16", "-1", "%r1", "%rd1", "%h1", "%p1"):
            yield "barrier", f"{op} {dst}{ids}{src};"
        for cnt in ("32", "33", "0", "%r2", "%rd2", "2048"):
            if op.startswith("bar.arrive") or op.startswith("barrier.arrive"):
                yield "barrier", f"{op} 1, {cnt}{src};"
            else:
                yield "barrier", f"{op} {dst}1, {cnt}{src};"
    for op in ("bar.red.popc.u32 %rd1, 0, %p1;", "bar.red.and.pred %r1, 0, %p1;", "bar.red.popc.u32 %r1, 0, %r2;",
               "bar.red.popc.u64 %rd1, 0, %p1;", "bar.red.popc.u32 %r1, 0, !%p1;", "bar.red.add.u32 %r1, 0, %p1;",
               "bar.sync;", "bar.sync 0, 32, 1;", "bar.snyc 0;", "bar.sync.relaxed 0;", "bar.arrive 0;",
               "bar.warp.sync -1;", "bar.warp.sync %r1;", "bar.warp.sync %rd1;", "bar.warp.sync 0;",
               "bar.warp.sync %p1;"):
        yield "barrier", op
    for op in ("barrier.cluster.arrive", "barrier.cluster.arrive.relaxed", "barrier.cluster.arrive.release",
               "barrier.cluster.wait", "barrier.cluster.wait.acquire", "barrier.cluster.arrive.aligned",
               "barrier.cluster.wait.aligned", "barrier.cluster.arrive.acquire", "barrier.cluster.wait.relaxed"):
        yield "barrier", op + ";"
        yield "barrier", op + " 0;"


def _forms_fence():
    for sem in ("", ".sc", ".acq_rel", ".acquire", ".release", ".relaxed"):
        for scope in ("", ".cta", ".cluster", ".gpu", ".sys"):
            yield "fence", f"fence{sem}{scope};"
    for op in ("membar.cta", "membar.gl", "membar.sys", "membar.cluster", "membar", "membar.proxy.alias",
               "fence.proxy.alias", "fence.proxy.async", "fence.proxy.async.global", "fence.proxy.async.shared::cta",
               "fence.proxy.async.shared::cluster", "fence.proxy.async.local", "fence.proxy.tensormap::generic.release.gpu",
               "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 128", "fence.proxy.tensormap::generic.acquire.gpu [%rd1], 64",
               "fence.proxy.tensormap::generic.acquire.cta [%rd1], 128", "fence.proxy.tensormap::generic.release",
               "fence.mbarrier_init.release.cluster", "fence.mbarrier_init.release.cta", "fence.mbarrier_init",
               "fence.acquire.sync_restrict::shared::cluster.cluster", "fence.release.sync_restrict::shared::cta.cluster",
               "fence.release.sync_restrict::shared::cluster.cluster", "fence.proxy.async::generic.acquire.sync_restrict::shared::cluster.cluster",
               "fence.proxy.async::generic.release.sync_restrict::shared::cta.cluster", "fence.sc.cta 0", "fence.cta",
               "fence.op_restrict.release.cluster", "fence.sc.cluster.gpu", "fence.proxy.alias.gpu"):
        yield "fence", op + ";"


_ATOM_OPS = {"add": ("u32", "s32", "u64", "f32", "f64", "f16", "bf16", "f16x2", "s64", "b32"),
             "min": ("u32", "s32", "u64", "s64", "f32"), "and": ("b32", "b64", "u32"), "inc": ("u32", "u64"),
             "exch": ("b16", "b32", "b64", "b128"), "cas": ("b16", "b32", "b64", "b128")}
_REG_OF = {"b16": "%h", "f16": "%h", "bf16": "%h", "u32": "%r", "s32": "%r", "b32": "%r", "f32": "%f", "f16x2": "%r",
           "bf16x2": "%r", "u64": "%rd", "s64": "%rd", "b64": "%rd", "f64": "%rd", "b128": "%q"}
_WIDER = {"%h": "%r", "%r": "%rd", "%f": "%rd", "%rd": "%r", "%q": "%rd"}


def _forms_atomic():
    for op, types in _ATOM_OPS.items():
        for t in types:
            r = _REG_OF[t]
            srcs = f"{r}2, {r}3" if op == "cas" else f"{r}2"
            noftz = ".noftz" if t in ("f16", "bf16", "f16x2") else ""
            yield "atomic", f"atom.global{noftz}.{op}.{t} {r}1, [%rd1], {srcs};"
            w = _WIDER[r]
            yield "atomic", f"atom.global{noftz}.{op}.{t} {w}1, [%rd1], {srcs.replace(r, w)};"
            yield "atomic", f"red.global{noftz}.{op}.{t} [%rd1], {srcs};"
            yield "atomic", f"atom.shared{noftz}.{op}.{t} {r}1, [ssym], {srcs};"
    for space in (".local", ".const", ".param", ".shared::cluster", ".shared::cta", ""):
        yield "atomic", f"atom{space}.add.u32 %r1, [%rd1], %r2;"
    for sym in ("gsym", "ssym", "lsym"):
        for space in (".global", ".shared", ""):
            yield "atomic", f"atom{space}.add.u32 %r1, [{sym}], %r2;"
    for extra in ("atom.global.add.u32 %r1, [%r2], %r3;", "atom.global.add.u32 %r1, [%rd1], 1;",
                  "atom.global.add.u32 %r1, [%rd1];", "atom.global.add.u32 %r1, [%rd1], %r2, %r3;",
                  "atom.global.add.u32 [%rd1], %r2;", "red.global.add.u32 %r1, [%rd1], %r2;",
                  "atom.global.add.u32 %p1, [%rd1], %r2;", "red.global.cas.b32 [%rd1], %r1, %r2;",
                  "red.global.exch.b32 [%rd1], %r1;", "atom.global.ad.f32 %f1, [%rd1], %f2;",
                  "atom.global.add.s.u64 %rd1, [%rd2], %rd3;", "atom.global.sys.add.u32 %r1, [%rd1], %r2;",
                  "atom.global.cluster.add.u32 %r1, [%rd1], %r2;", "atom.acquire.gpu.global.add.u32 %r1, [%rd1], %r2;",
                  "red.acquire.gpu.global.add.u32 [%rd1], %r2;", "atom.global.v2.f32.add %rd1, [%rd1], %rd2;",
                  "atom.global.v2.f32.add {%f1, %f2}, [%rd1], {%f2, %f3};",
                  "atom.global.v4.f32.add {%f1, %f2, %f3, %f0}, [%rd1], {%f2, %f3, %f1, %f0};",
                  "red.global.v2.f16x2.add.noftz [%rd1], {%r1, %r2};", "atom.global.cas.b32 %r1, [%rd1], %r2;",
                  "atom.global.exch.b128 %q1, [%rd1], %rd2;", "atom.global.cas.b128 %q1, [%rd1], %q2, %rd3;",
                  "atom.global.add.u32 %r1, [%rd1+4], %r2;", "atom.global.add.u32 %r1, [gsym+8], %r2;",
                  "atom.global.add.u32 %r1, [%rd1], %rd2;", "atom.global.add.u64 %rd1, [%rd1], %r2;",
                  "atom.global.add.u32 %r1, [%rd1], %p1;", "atom.global.L2::cache_hint.add.u32 %r1, [%rd1], %r2, %rd3;",
                  "atom.global.L2::cache_hint.add.u32 %r1, [%rd1], %r2;", "atom.global.add.u32 %r1, [%rd1], -1;",
                  "atom.global.add.f32 %f1, [%rd1], 0f3F800000;", "atom.global.add.f32 %f1, [%rd1], 1.0;",
                  "atom.global.inc.u32 %r1, [%rd1], %r2;", "atom.global.dec.u32 %r1, [%rd1], 5;"):
        yield "atomic", extra


def _forms_atomic_orders():
    """Memory order x scope x state space of atom/red (and ld/st's .relaxed/.acquire/.volatile forms)."""
    for sem in ("", ".relaxed", ".acquire", ".release", ".acq_rel", ".sc"):
        for scope in ("", ".cta", ".cluster", ".gpu", ".sys"):
            for space, addr in ((".global", "[%rd1]"), (".shared", "[ssym]"), ("", "[%rd1]"),
                                (".shared::cluster", "[%rd1]")):
                yield "atomic", f"atom{sem}{scope}{space}.add.u32 %r1, {addr}, %r2;"
                if sem not in (".acquire", ".acq_rel"):
                    yield "atomic", f"red{sem}{scope}{space}.add.u32 {addr}, %r2;"
    for op in ("ld", "st"):
        for q in (".relaxed.gpu", ".acquire.gpu", ".release.gpu", ".volatile", ".relaxed", ".acquire.cluster",
                  ".weak", ".mmio.relaxed.sys", ".relaxed.cta.shared", ".volatile.shared"):
            space = "" if ".shared" in q else ".global"
            body = f"ld{q}{space}.u32 %r1, [%rd1];" if op == "ld" else f"st{q}{space}.u32 [%rd1], %r1;"
            yield "atomic", body


def _forms_warp():
    for mode in ("any", "all", "uni", "ballot"):
        for d, s in (("%p1", "%p2"), ("%r1", "%p2"), ("%rd1", "%p2"), ("%p1", "%r2"), ("%r1", "!%p2")):
            t = ".b32" if mode == "ballot" else ".pred"
            yield "warp", f"vote.sync.{mode}{t} {d}, {s}, -1;"
        yield "warp", f"vote.sync.{mode}.pred %p1, %p2, %rd1;"
        yield "warp", f"vote.{mode}.pred %p1, %p2;"
    for mode in ("up", "down", "bfly", "idx"):
        for d in ("%r1", "%rd1", "%f1", "%h1", "%r1|%p1"):
            yield "warp", f"shfl.sync.{mode}.b32 {d}, %r2, 1, 31, -1;"
        for b, c in (("32", "31"), ("%rd2", "31"), ("1", "%rd3"), ("-1", "0x1f"), ("%r3", "%r4")):
            yield "warp", f"shfl.sync.{mode}.b32 %r1, %r2, {b}, {c}, -1;"
        yield "warp", f"shfl.sync.{mode}.b32 %r1, %r2, 1, 31, %rd1;"
        yield "warp", f"shfl.sync.{mode}.b32 %r1, %r2, 1, 31;"
    for mode in ("any", "all"):
        for t in ("b32", "b64", "u32", "f32"):
            for d in ("%r1", "%rd1", "%r1|%p1", "%rd1|%p1"):
                src = "%rd2" if t == "b64" else "%r2"
                yield "warp", f"match.{mode}.sync.{t} {d}, {src}, -1;"
    for op, types in (("add", ("u32", "s32", "b32", "f32", "u64")), ("min", ("u32", "s32", "f32")),
                      ("and", ("b32", "u32")), ("or", ("b32",)), ("max", ("s32", "f32.NaN", "f32.abs"))):
        for t in types:
            d = "%f1" if t.startswith("f32") else "%r1"
            s = "%f2" if t.startswith("f32") else "%r2"
            yield "warp", f"redux.sync.{op}.{t} {d}, {s}, -1;"
    for extra in ("redux.sync.add.u32 %rd1, %r2, -1;", "redux.sync.add.u32 %r1, %r2, %r3;",
                  "redux.sync.add.u32 %r1, %rd2, -1;", "activemask.b32 %r1;", "activemask.b32 %rd1;",
                  "activemask.b64 %rd1;", "activemask.b32 %p1;", "elect.sync %r1|%p1, -1;", "elect.sync _|%p1, -1;",
                  "elect.sync %r1, -1;", "elect.sync %rd1|%p1, -1;", "elect.sync %r1|%p1, %r2;",
                  "elect.sync %r1|%p1, %rd2;", "vote.sync.ballot.b32 %r1, %p1, %r3;",
                  "match.any.sync.b32 %r1, %r2;", "shfl.sync.idx.b64 %rd1, %rd2, 1, 31, -1;"):
        yield "warp", extra


def _forms_mbarrier():
    addrs = ("[sbar]", "[gbar]", "[lbar]", "[%rd1]", "[%r1]", "[ssym+8]")
    for addr in addrs:
        for space in (".shared", ""):
            yield "mbarrier", f"mbarrier.init{space}.b64 {addr}, 32;"
            yield "mbarrier", f"mbarrier.arrive{space}.b64 %rd2, {addr};"
            yield "mbarrier", f"mbarrier.test_wait{space}.b64 %p1, {addr}, %rd2;"
            yield "mbarrier", f"mbarrier.try_wait.parity{space}.b64 %p1, {addr}, 0;"
    for space in (".global", ".local", ".shared::cta", ".shared::cluster"):
        yield "mbarrier", f"mbarrier.init{space}.b64 [%rd1], 32;"
        yield "mbarrier", f"mbarrier.arrive{space}.b64 _, [%rd1];"
    for cnt in ("0", "-1", "1", "32", "%r2", "%rd2", "1048575", "1048576", "2097152"):
        yield "mbarrier", f"mbarrier.init.shared.b64 [sbar], {cnt};"
        yield "mbarrier", f"mbarrier.arrive.noComplete.shared.b64 %rd2, [sbar], {cnt};"
        yield "mbarrier", f"mbarrier.arrive.shared.b64 %rd2, [sbar], {cnt};"
        yield "mbarrier", f"mbarrier.expect_tx.relaxed.cta.shared.b64 [sbar], {cnt};"
        yield "mbarrier", f"mbarrier.arrive.expect_tx.shared.b64 %rd2, [sbar], {cnt};"
    for par in ("0", "1", "2", "-1", "%r2", "%rd2", "%p2"):
        yield "mbarrier", f"mbarrier.try_wait.parity.shared.b64 %p1, [sbar], {par};"
        yield "mbarrier", f"mbarrier.test_wait.parity.shared.b64 %p1, [sbar], {par};"
    for hint in ("100", "%r2", "%rd2", "-1"):
        yield "mbarrier", f"mbarrier.try_wait.shared.b64 %p1, [sbar], %rd2, {hint};"
    for extra in ("mbarrier.arrive.shared.b64 %r2, [sbar];", "mbarrier.arrive.shared.b64 %p2, [sbar];",
                  "mbarrier.test_wait.shared.b64 %r1, [sbar], %rd2;", "mbarrier.test_wait.shared.b64 %p1, [sbar], %r2;",
                  "mbarrier.init.shared.b32 [sbar], 1;", "mbarrier.init.shared.b64 [sbar];",
                  "mbarrier.inval.shared.b64 [sbar];", "mbarrier.pending_count.b64 %r1, %rd2;",
                  "mbarrier.pending_count.b64 %rd1, %rd2;", "mbarrier.expect_tx.relaxed.cta.shared.b64 [sbar], 16;",
                  "mbarrier.complete_tx.relaxed.cta.shared.b64 [sbar], 16;", "mbarrier.expect_tx.shared.b64 [sbar], 16;",
                  "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%r1];",
                  "mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%rd1];",
                  "mbarrier.try_wait.relaxed.cta.shared.b64 %p1, [sbar], %rd2;",
                  "mbarrier.arrive_drop.shared.b64 %rd2, [sbar];", "mbarrier.arrive_drop.noComplete.shared.b64 %rd2, [sbar], 0;",
                  "mbarrier.init.shared.b64 [sbar], 1, 2;", "mbarrier.init.shared.b64 %rd1, 1;",
                  "mbarrier.init.shared.b64 [%rd1+8], 1;", "mbarrier.snyc.shared.b64 [sbar], 1;"):
        yield "mbarrier", extra


def _forms_cp_async():
    for kind in ("ca", "cg"):
        for size in ("4", "8", "16", "3", "32", "%r2"):
            yield "cp_async", f"cp.async.{kind}.shared.global [ssym], [%rd1], {size};"
        for src in ("0", "4", "8", "16", "20", "%r2", "%rd2"):
            yield "cp_async", f"cp.async.{kind}.shared.global [ssym], [%rd1], 16, {src};"
            yield "cp_async", f"cp.async.{kind}.shared.global [ssym], [%rd1], 8, {src};"
        for dst in ("[gsym]", "[lsym]", "[%rd2]", "[%r2]", "[ssym+16]"):
            yield "cp_async", f"cp.async.{kind}.shared.global {dst}, [%rd1], 16;"
        for src in ("[ssym]", "[lsym]", "[gsym]", "[%r2]"):
            yield "cp_async", f"cp.async.{kind}.shared.global [ssym], {src}, 16;"
    for extra in ("cp.async.commit_group;", "cp.async.wait_group 0;", "cp.async.wait_group 1;",
                  "cp.async.wait_group -1;", "cp.async.wait_group %r1;", "cp.async.wait_all;", "cp.async.wait_all 0;",
                  "cp.async.mbarrier.arrive.shared.b64 [sbar];", "cp.async.mbarrier.arrive.noinc.shared.b64 [sbar];",
                  "cp.async.mbarrier.arrive.b64 [%rd1];", "cp.async.mbarrier.arrive.shared.b64 [gbar];",
                  "cp.async.ca.shared.global.L2::128B [ssym], [%rd1], 16;", "cp.async.cg.shared.global.L2::64B [ssym], [%rd1], 16;",
                  "cp.async.ca.shared.global.L2::cache_hint [ssym], [%rd1], 16, %rd2;",
                  "cp.async.ca.shared.global [ssym], [%rd1], 16, 8, %rd2;", "cp.async.ca.global.shared [%rd1], [ssym], 16;",
                  "cp.async.ca.shared::cta.global [ssym], [%rd1], 16;"):
        yield "cp_async", extra


def _forms_bulk():
    g2s = "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes"
    for size in ("16", "15", "32", "24", "0", "%r2", "%rd2", "-16"):
        yield "bulk", f"{g2s} [ssym], [%rd1], {size}, [sbar];"
        yield "bulk", f"cp.async.bulk.global.shared::cta.bulk_group [%rd1], [ssym], {size};"
        yield "bulk", f"cp.async.bulk.prefetch.L2.global [%rd1], {size};"
        yield "bulk", f"cp.reduce.async.bulk.global.shared::cta.bulk_group.add.u32 [%rd1], [ssym], {size};"
    for dst, src, bar in (("[gsym]", "[%rd1]", "[sbar]"), ("[lsym]", "[%rd1]", "[sbar]"), ("[ssym]", "[ssym]", "[sbar]"),
                          ("[ssym]", "[%rd1]", "[gbar]"), ("[ssym]", "[%rd1]", "[lbar]"), ("[%r2]", "[%rd1]", "[sbar]"),
                          ("[%rd2]", "[%rd1]", "[%rd3]"), ("[ssym]", "[%r1]", "[sbar]")):
        yield "bulk", f"{g2s} {dst}, {src}, 16, {bar};"
    for extra in ("cp.async.bulk.commit_group;", "cp.async.bulk.wait_group 0;", "cp.async.bulk.wait_group.read 0;",
                  "cp.async.bulk.wait_group -1;", "cp.async.bulk.wait_group %r1;", "cp.async.bulk.wait_group 64;",
                  "cp.async.bulk.shared::cluster.shared::cta.mbarrier::complete_tx::bytes [ssym], [ssym], 16, [sbar];",
                  "cp.async.bulk.shared::cta.global.mbarrier::complete_tx::bytes [ssym], [%rd1], 16, [sbar];",
                  f"{g2s}.multicast::cluster [ssym], [%rd1], 16, [sbar], %h1;",
                  f"{g2s}.multicast::cluster [ssym], [%rd1], 16, [sbar], %r1;",
                  f"{g2s}.L2::cache_hint [ssym], [%rd1], 16, [sbar], %rd2;",
                  f"{g2s}.L2::cache_hint [ssym], [%rd1], 16, [sbar], %r2;",
                  "cp.async.bulk.tensor.1d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [ssym], [%rd1, {%r1}], [sbar];",
                  "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [ssym], [%rd1, {%r1, %r2}], [sbar];",
                  "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [ssym], [%rd1, {%r1}], [sbar];",
                  "cp.async.bulk.tensor.3d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [ssym], [%rd1, {%r1, %r2, %r3}], [sbar];",
                  "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [ssym], [%rd1, {%rd1, %r2}], [sbar];",
                  "cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%rd1, {%r1, %r2}], [ssym];",
                  "cp.async.bulk.tensor.6d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [ssym], [%rd1, {%r1, %r2, %r3, %r4, %r5, %r6}], [sbar];",
                  "cp.async.bulk.prefetch.tensor.2d.L2.global.tile [%rd1, {%r1, %r2}];",
                  "cp.reduce.async.bulk.tensor.2d.global.shared::cta.add.tile.bulk_group [%rd1, {%r1, %r2}], [ssym];",
                  "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %r1, [%rd2];",
                  "st.async.shared::cluster.mbarrier::complete_tx::bytes.u32 [%rd1], %rd1, [%rd2];",
                  "red.async.relaxed.cluster.shared::cluster.mbarrier::complete_tx::bytes.add.u32 [%rd1], %r1, [%rd2];",
                  "setmaxnreg.inc.sync.aligned.u32 32;", "setmaxnreg.dec.sync.aligned.u32 40;",
                  "setmaxnreg.inc.sync.aligned.u32 20;", "setmaxnreg.inc.sync.aligned.u32 33;",
                  "setmaxnreg.inc.sync.aligned.u32 264;", "setmaxnreg.inc.sync.aligned.u32 256;",
                  "setmaxnreg.inc.sync.aligned.u32 24;", "setmaxnreg.dec.sync.aligned.u32 %r1;",
                  "setmaxnreg.inc.sync.aligned.u32 0;", "setmaxnreg.inc.u32 32;", "setmaxnreg.inc.sync.aligned.u64 32;",
                  "multimem.ld_reduce.relaxed.sys.global.add.u32 %r1, [%rd1];",
                  "multimem.st.relaxed.sys.global.u32 [%rd1], %r1;", "multimem.red.relaxed.sys.global.add.u32 [%rd1], %r1;",
                  "tcgen05.fence::before_thread_sync;", "tcgen05.commit.cta_group::1.mbarrier::arrive::one.b64 [%rd1];",
                  "getctarank.shared::cluster.u32 %r1, %rd1;", "mapa.shared::cluster.u64 %rd1, %rd2, %r1;",
                  "griddepcontrol.wait;", "griddepcontrol.launch_dependents;", "elect.sync %r1|%p1, -1;"):
        yield "bulk", extra


def _forms_operands():
    for extra in ("st.global.u32 [%rd1], !%r1;", "st.global.u32 [%rd1], -%r1;", "st.global.u32 [[%rd1]], %r1;",
                  "ld.global.u32 %r1, [[%rd1]];", "mov.b32 {{%r1}}, %r2;", "st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4, %r5, %r6};",
                  "st.global.v4.u32 [%rd1], {%r1, %r2};", "st.global.v2.u32 [%rd1], {%r1, %r2};",
                  "ld.global.v2.u32 {%r1, %rd2}, [%rd1];", "st.global.u32 [%rd1], %rd2;", "st.global.u64 [%rd1], %r2;",
                  "st.global.u32 [%r1], %r2;", "ld.global.u32 %r1, [%rd1+%rd2];", "ld.global.u32 %r1, [lsym];",
                  "ld.shared.u32 %r1, [gsym];", "ld.global.u32 %r1, [ssym];", "st.local.u32 [ssym], %r1;",
                  "mov.u32 %r1, WARP_SZ;", "add.u32 %r1, %r2, WARP_SZ;", "mov.u32 %r1, %warpsize;",
                  "add.u32 %r1, %r2;", "add.u32 %r1, %r2, %r3, %r4;", "mov.u32 %r1, %undeclared;",
                  "@%r1 bra $L_end;", "@!%p1 bra $L_end;", "bra $L_nowhere;", "mov.u32 %r1, %r99;",
                  "ld.global.u32 %r1, [%rd1], %r2;", "cvta.to.global.u64 %rd1, %rd2;", "cvta.to.global.u64 %r1, %rd2;",
                  "isspacep.shared %p1, %rd1;", "isspacep.shared %r1, %rd1;"):
        yield "operands", extra


GENERATORS = (_forms_barrier, _forms_fence, _forms_atomic, _forms_atomic_orders, _forms_warp, _forms_mbarrier, _forms_cp_async, _forms_bulk,
              _forms_operands)


def forms() -> list[tuple[str, str]]:
    """(family, body) of every generated form, deduplicated, in generation order."""
    seen, out = set(), []
    for gen in GENERATORS:
        for fam, body in gen():
            if body not in seen:
                seen.add(body)
                out.append((fam, body))
    return out


def kernel(body: str, target: str, version: str = VERSION) -> str:
    return KERNEL.format(version=version, target=target, body=body)


_MSG = re.compile(r"^ptxas [^,]*, line (\d+); (error|fatal)\s*: (.*)$")
_FATAL = re.compile(r"^ptxas fatal\s*: (.*)$")           # a fatal without a line (kept as line None)


def ptxas_messages(body: str, target: str) -> list:
    """ptxas's errors for one form: [[line relative to the form, message], ...] ([] = accepted); None when
    ptxas crashed (no verdict)."""
    with tempfile.TemporaryDirectory() as d:
        f = Path(d) / "k.ptx"
        f.write_text(kernel(body, target))
        r = subprocess.run(["ptxas", f"-arch={target}", str(f), "-o", str(Path(d) / "k.cubin")],
                           capture_output=True, text=True)
    out = []
    for line in (r.stdout + r.stderr).splitlines():
        m = _MSG.match(line.replace(str(f), "k.ptx"))
        if m:
            out.append([int(m.group(1)) - FIRST_LINE, m.group(3).strip()])
        elif _FATAL.match(line) and "Ptx assembly aborted" not in line:
            out.append([None, _FATAL.match(line).group(1).strip()])
    if r.returncode != 0 and not out:
        return None                                         # a crash: no message at all
    return out


def pylower_messages(body: str, target: str) -> list:
    """pylower's front-end errors for one form (parse and build: where ptxas's checks are)."""
    from pylower.lowering import build
    from pylower.lowering.diagnostics import PtxError
    from pylower.lowering.target import parse_target
    try:
        build.build_text(kernel(body, target), "k.ptx", parse_target(target))
    except PtxError as e:
        return [[x.line - FIRST_LINE if x.line else None, m] for x in e.all() for m in (x.message,) + x.more]
    return []


def generate() -> dict:
    fs = forms()
    jobs = list(itertools.product(range(len(fs)), TARGETS))
    with ThreadPoolExecutor(4) as pool:
        res = list(pool.map(lambda j: ptxas_messages(fs[j[0]][1], j[1]), jobs))
    table: dict = {}
    for (i, t), r in zip(jobs, res):
        table.setdefault(i, {})[t] = r
    out = []
    for i, (fam, body) in enumerate(fs):
        by_result: dict = {}
        for t in TARGETS:
            by_result.setdefault(json.dumps(table[i][t]), []).append(t)
        out.append({"family": fam, "ptx": body,
                    "ptxas": [{"targets": ts, "errors": json.loads(r)} for r, ts in by_result.items()]})
    return {"ptxas": "13.0.88", "version": VERSION, "targets": list(TARGETS), "forms": out}


def read_reference() -> dict:
    return json.loads(gzip.decompress(REFERENCE.read_bytes()))


def compare(ref: dict) -> dict:
    """Per family: cases, accept/reject agreements, exact message agreements, and the disagreeing cases."""
    stats: dict = {}
    for f in ref["forms"]:
        for r in f["ptxas"]:
            if r["errors"] is None:
                continue
            for t in r["targets"]:
                mine = pylower_messages(f["ptx"], t)
                s = stats.setdefault(f["family"], {"cases": 0, "accept": 0, "messages": 0, "diff": []})
                s["cases"] += 1
                same_verdict = bool(mine) == bool(r["errors"])
                s["accept"] += same_verdict
                s["messages"] += mine == r["errors"]
                if mine != r["errors"]:
                    s["diff"].append((f["ptx"], t, r["errors"], mine, same_verdict))
    return stats


def check_vocabulary() -> list[str]:
    """Tokens of ptx_modifiers.MODIFIERS that ptxas now calls "Unknown modifier" (should be [])."""
    from pylower.lowering.ptx_modifiers import MODIFIERS
    bad = []
    toks = sorted(MODIFIERS)
    for i in range(0, len(toks), 40):
        chunk = toks[i:i + 40]
        msgs = ptxas_messages("\n".join(f"bar.sync{m} 0;" for m in chunk), "sm_100a") or []
        bad += [chunk[ln] for ln, m in msgs if m.startswith("Unknown modifier") and 0 <= ln < len(chunk)]
    return bad


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--compare", action="store_true", help="compare pylower with the stored reference")
    ap.add_argument("--vocabulary", action="store_true", help="re-check the modifier vocabulary with ptxas")
    ap.add_argument("-v", "--verbose", action="store_true", help="with --compare: list every disagreement")
    a = ap.parse_args(argv)
    if a.vocabulary:
        bad = check_vocabulary()
        print("vocabulary ok" if not bad else f"not modifiers for ptxas: {' '.join(bad)}")
        return 1 if bad else 0
    if a.compare:
        stats = compare(read_reference())
        tot = [0, 0, 0]
        for fam, s in stats.items():
            print(f"{fam:10s} cases {s['cases']:4d}  accept/reject {s['accept']:4d}  messages {s['messages']:4d}")
            tot = [tot[0] + s["cases"], tot[1] + s["accept"], tot[2] + s["messages"]]
            if a.verbose:
                for ptx, t, theirs, mine, same in s["diff"]:
                    print(f"  {'MSG' if same else 'VERDICT'} [{t}] {ptx}\n      ptxas:   {theirs}\n      pylower: {mine}")
        print(f"{'total':10s} cases {tot[0]:4d}  accept/reject {tot[1]:4d}  messages {tot[2]:4d}")
        return 0
    ref = generate()
    buf = io.BytesIO()
    with gzip.GzipFile(filename="", mode="wb", fileobj=buf, mtime=0, compresslevel=9) as z:   # deterministic
        z.write((json.dumps(ref, indent=0, sort_keys=True) + "\n").encode())
    REFERENCE.write_bytes(buf.getvalue())
    print(f"{len(ref['forms'])} forms x {len(TARGETS)} targets -> {REFERENCE.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
