"""No input breaks pylower: each crash class the fuzzer found (issue 11) as a regression test, with what
ptxas 13.0.88 does with the same input (accepts, or rejects with this message at this line)."""
import os
import subprocess
import sys
import time

import pytest

from pylower.lowering.diagnostics import PtxError
from pylower.pipeline import compile_text

HEAD = ".version 9.0\n.target sm_90\n.address_size 64\n"
DECLS = ".reg .b32 %r<5>; .reg .b64 %rd<5>; .reg .pred %p<3>; .reg .f32 %f<3>;\n"


def kernel(body: str, head: str = HEAD) -> str:
    """A kernel whose body starts on line 7 (after the declarations on line 6)."""
    return head + ".visible .entry k()\n{\n" + DECLS + body + "\n\tret;\n}\n"


def rejected(text: str, arch: str | None = None) -> PtxError:
    arch = arch or next(w for w in text.split("\n")[1].split() if w.startswith("sm_"))
    with pytest.raises(PtxError) as e:
        compile_text(text, "t.ptx", arch)
    return e.value


# ---------------------------------------------------------------- accepted by ptxas (crashed before)

# a load if staged to shared memory before a CTA barrier, then an if whose arms meet only at the kernel's exit
# (fuzz seed 59: a `ret` duplicated into lk32_block_sync_lock; KeyError on the virtual exit's liveness)
_EXIT_JOIN = """.shared .align 4 .b8 s[512];
\tmov.u32 %r1, %tid.x;
\tsetp.ge.s32 %p1, %r1, %r2;
\t@%p1 bra L2;
\tld.global.u32 %r3, [%rd4];
L2:
\tst.shared.u32 [%r0], %r3;
\tbar.sync 0;
\t@%p2 bra L6;
\tld.shared.u32 %r4, [s+4];
\tret;
L6:"""

# cp.async's src-size computed by a shift (ISel follows the value set of the src-size register)
_SRC_SIZE = """.shared .align 16 .b8 s[64];
\tmov.u32 %r1, %tid.x;
\tand.b32 %r2, %r1, 16;
\t{shift};
\tmov.u64 %rd1, 0;
\tcp.async.ca.shared.global [s], [%rd1], 16, %r3;
\tcp.async.wait_all;"""

@pytest.mark.parametrize("text", [
    kernel(".reg .b32 %q<0x10>;\n\tmov.u32 %q15, 1;"),
    kernel(".reg .b32 %q<1U>;\n\t.reg .b32 %s<0b101>;\n\t.reg .b32 %t<0>;"),
    kernel("", head=".version 9.0\n.target sm_90\n.address_size 0x40\n"),
    kernel(".shared .align 0x10 .b32 s[0x10U];\n\tst.shared.u32 [s], 1;"),
    kernel("{" * 1000 + "\nmov.u32 %r1, 1;\n" + "}" * 1000),
    kernel("{" * 1000 + "\n.reg .b32 %r<2>;\nL1:\nmov.u32 %r1, 1;\n" + "}" * 1000),   # shadowing, 1000 deep
    kernel("mov.u32 %r1, 010;"),                                                        # octal
    kernel("{ L1: bra L1; } { L1: bra L1; }"),                                          # one label per scope
    kernel(_SRC_SIZE.format(shift="shr.u32 %r3, %r2, -1")),          # a negative shift amount: clamped
    kernel(_SRC_SIZE.format(shift="shl.b32 %r3, %r2, 1000000000")),  # a huge one: clamped, not a huge integer
    kernel(_EXIT_JOIN),
], ids=["reg-range-hex", "reg-range-forms", "address-size-hex", "align-dims-hex", "scopes-1000",
        "scopes-1000-shadowing", "octal", "label-per-scope", "src-size-shift-negative", "src-size-shift-huge",
        "if-meeting-at-exit-after-barrier"])
def test_accepted_as_ptxas_does(text):
    compile_text(text, "t.ptx", "sm_90")


# ---------------------------------------------------------------- rejected with ptxas's message and line

CASES = {
    # integer constants where the grammar wants one
    "address-size-float": (kernel("", head=".version 9.0\n.target sm_90\n.address_size 64.\n"), 3,
                           "Parsing error near '64.': syntax error"),
    "address-size-16": (kernel("", head=".version 9.0\n.target sm_90\n.address_size 16\n"), 3,
                        "Illegal value for .address_size directive (must be 32 or 64)"),
    "reg-range-float": (kernel(".reg .b32 %q<4.>;"), 7, "Parsing error near '4.': syntax error"),
    "reg-range-overflow": (kernel(".reg .b32 %q<4294967296>;"), 7, "Constant overflow"),
    "reg-range-negative": (kernel(".reg .b32 %q<-1>;"), 7, "Parsing error near '-': syntax error"),
    "dim-float": (kernel(".shared .b32 s[1.5];"), 7, "Parsing error near '1.5': syntax error"),
    "dim-overflow": (kernel(".shared .b32 s[99999999999999999999];"), 7, "Constant overflow"),
    "align-not-power": (kernel(".shared .align 3 .b32 s[4];"), 7, "Alignment must be a power of two"),
    "align-float": (kernel(".shared .align 4.0 .b32 s[4];"), 7, "Parsing error near '4.0': syntax error"),
    "bad-octal": (kernel("mov.u32 %r1, 09;"), 7, "Parsing error near '9': syntax error"),
    "bad-octal-offset": (kernel("ld.global.u32 %r1, [%rd1+09];"), 7, "Parsing error near '9': syntax error"),
    "float-offset": (kernel("ld.global.u32 %r1, [%rd1+1e400];"), 7, "Parsing error near '1e400': syntax error"),
    "decimal-overflow": (kernel("mov.u32 %r1, 99999999999999999999999;"), 7, "Constant overflow"),
    "float-overflow": (kernel("mov.f32 %f1, 1e400;"), 7, "Constant overflow"),
    "short-hex-float": (kernel("mov.f32 %f1, 0f3F80000;"), 7, "Parsing error near 'f3F80000': syntax error"),
    # nesting that ptxas's grammar does not have (it recursed without bound before)
    "vector-in-vector": (kernel("mov.b64 {{%r1, %r2}}, %rd1;"), 7, "Parsing error near '{': syntax error"),
    "address-in-address": (kernel("st.global.u32 [[%rd1]], %r1;"), 7, "Parsing error near '[': syntax error"),
    "400-brackets": (kernel("st.global.u32 " + "[" * 400 + "%rd1" + "]" * 400 + ", %r1;"), 7,
                     "Parsing error near '[': syntax error"),
    "400-braces": (kernel("mov.b64 " + "{" * 400 + "%r1" + "}" * 400 + ", %rd1;"), 7,
                   "Parsing error near '{': syntax error"),
    "double-negation": (kernel("not.pred %p1, !!%p2;"), 7, "Parsing error near '!': syntax error"),
    "pair-chain": (kernel("setp.eq.s32 " + "|".join(["%p1"] * 3000) + ", %r1, 1;"), 7,
                   "Parsing error near '|': syntax error"),
    "scopes-1664": (kernel("{" * 1664 + "\nmov.u32 %r1, 1;\n" + "}" * 1664), 7, "memory exhausted"),
    # operand counts and kinds (StopIteration / IndexError in the families before)
    "atom-no-operands": (kernel("atom.add.s.u64;"), 7, "Arguments mismatch for instruction 'atom'"),
    "red-no-address": (kernel("red.shared.add.u32 %r1, %r2;"), 7, "Arguments mismatch for instruction 'red'"),
    "atom-one-source": (kernel("atom.global.add.u32 %r1, [%rd1];"), 7, "Arguments mismatch for instruction 'atom'"),
    "add-two-operands": (kernel("add.u32 %r1, %r2;"), 7, "Arguments mismatch for instruction 'add'"),
    "mov-three-operands": (kernel("mov.u32 %r1, %r2, %r3;"), 7, "Arguments mismatch for instruction 'mov'"),
    "st-no-value": (kernel("st.global.u32 [%rd1];"), 7, "Arguments mismatch for instruction 'st'"),
    "ld-no-address": (kernel("ld.global.u32 %r1, %rd1;"), 7, "Arguments mismatch for instruction 'ld'"),
    "ld-address-destination": (kernel("ld.global.u32 [%rd1], [%rd1];"), 7,
                               "Argument 0 of instruction 'ld': must be register"),
    "bar-no-operands": (kernel("bar.sync;"), 7, "Arguments mismatch for instruction 'bar'"),
    "float-member-mask": (kernel("vote.sync.ballot.b32 %r1, %p1, 1.5;"), 7, "Arguments mismatch for instruction 'vote'"),
    "float-shfl-mask": (kernel("shfl.sync.bfly.b32 %r1, %r2, 2, 31, 1.5;"), 7, "Arguments mismatch for instruction 'shfl'"),
    "float-in-integer-op": (kernel("add.u32 %r1, %r1, 1.5;"), 7, "Arguments mismatch for instruction 'add'"),
    "float-barrier-id": (kernel("bar.sync 1.0;"), 7, "Arguments mismatch for instruction 'bar'"),
    "bulk-one-state-space": (
        kernel(".shared .align 16 .b8 buf[512];\n.shared .align 8 .b64 bar;\n"
               "cp.async.bulk.shared::cluster.mbarrier::complete_tx::bytes [buf], [buf+256], 256, [bar];",
               head=".version 9.0\n.target sm_100a\n.address_size 64\n"), 9,
        "Unexpected number of state spaces specified in instruction 'cp.async.bulk'"),
    "mbarrier-init-parity": (kernel(".shared .align 8 .b64 bar;\nmbarrier.init.parity.b64 [bar], 32;"), 8,
                             "Unknown modifier '.parity'"),
    "reduce-bulk-one-state-space": (
        kernel(".shared .align 16 .b8 buf[512];\n"
               "cp.reduce.async.bulk.shared::cta.bulk_group.add.u32 [%rd1], [buf], 256;",
               head=".version 9.0\n.target sm_100a\n.address_size 64\n"), 8,
        "Unexpected number of state spaces specified in instruction 'cp.reduce.async.bulk'"),
    "single-colon-modifier": (
        kernel(".shared .align 16 .b8 buf[512];\n"
               "cp.reduce.async.bulk.global.shared:bulk_group.and.b64 [%rd1], [buf], 256;",
               head=".version 9.0\n.target sm_100a\n.address_size 64\n"), 8, "Parsing error near ':': syntax error"),
    "bulk-no-operands": (kernel("cp.async.bulk;", head=".version 9.0\n.target sm_90a\n.address_size 64\n"), 7,
                         "Arguments mismatch for instruction 'cp.async.bulk'"),
    # duplicate definitions in one scope (a duplicated label in an if/else crashed depending on the hash seed)
    "duplicate-label": (kernel("@%p1 bra L2;\nL1:\n\tmov.u32 %r1, 1;\n\tbra L3;\nL2:\n\tmov.u32 %r1, 2;\nL2:\nL3:"),
                        13, "Duplicate definition of label 'L2'"),
    "duplicate-variable": (kernel(".reg .b32 %x;\n.reg .b32 %x;"), 8, "Duplicate definition of variable '%x'"),
    "duplicate-range": (kernel(".reg .b32 %r<3>;"), 7, "Duplicate definition of variable '%r<'"),
    # characters ptxas's reader stops at (a whole-file fatal in ptxas, located here)
    "non-ascii": (kernel("mov.u32 %r1, \u00e9;"), 7, "Unexpected non-ASCII character encountered on line 7"),
    "non-ascii-comment": (kernel("// caf\u00e9"), 7, "Unexpected non-ASCII character encountered on line 7"),
    "not-utf8": (kernel("mov.u32 %r1, 1; \udcff"), 7, "Unexpected non-ASCII character encountered on line 7"),
    "nul": (kernel("ret; // \x00"), 7, "Unexpected EOF encountered on line 7"),
    # file-level problems at the directive that causes them
    "target-above-arch": (kernel("", head=".version 9.0\n.target sm_100a\n.address_size 64\n"), 2,
                          "SM version specified by .target is higher than default SM version assumed", "sm_90"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_rejected_as_ptxas_does(name):
    text, line, msg, *arch = CASES[name]
    e = rejected(text, *arch)
    assert msg in e.format(), e.format()
    assert e.line == line, e.format()


def test_unresolved_call_is_located():
    text = HEAD + ".extern .func ext();\n.visible .entry k()\n{\n\tcall ext;\n\tret;\n}\n"
    e = rejected(text)
    assert e.message == "Unresolved extern function 'ext'" and e.line == 7


def test_32bit_abi_at_the_address_size_line():
    e = rejected(kernel("", head=".version 9.0\n.target sm_90\n.address_size 32\n"))
    assert "32-Bit ABI" in e.message and e.line == 3


@pytest.mark.parametrize("blanks", [" " * 40000, "\t" * 40000])
def test_long_blank_runs_are_linear(blanks):
    """A line with 40k blanks took 23 s of CPU (the instruction regex backtracked quadratically); now about
    0.05 s. CPU time, not wall time, so another process's load cannot fail it; the bound only catches the
    quadratic shape coming back."""
    for body in (f"mov.u32 %r1,{blanks}%r2;", f"mov.u32{blanks}%r1, %r2;", f"mov.u32 %r1, %r2{blanks}x",
                 f"ld.global.u32 %r1, [%rd1{blanks}x];", f"{blanks}mov.u32 %r1, %r2;{blanks}"):
        t0 = time.process_time()
        try:
            compile_text(kernel(body), "t.ptx", "sm_90")
        except PtxError:
            pass
        assert time.process_time() - t0 < 5.0, body[:20]


def test_duplicate_label_independent_of_hash_seed():
    """The if/else with a duplicated label: the same diagnostic under every PYTHONHASHSEED."""
    text = CASES["duplicate-label"][0]
    code = ("import sys; from pylower.pipeline import compile_text\n"
            "from pylower.lowering.diagnostics import PtxError\n"
            "try: compile_text(sys.stdin.read(), 't.ptx', 'sm_90')\n"
            "except PtxError as e: print(e.format())\n")
    outs = set()
    for seed in ("0", "1", "12345"):
        p = subprocess.run([sys.executable, "-c", code], input=text, capture_output=True, text=True,
                           env={**os.environ, "PYTHONHASHSEED": seed})
        assert p.returncode == 0 and "Traceback" not in p.stderr, p.stderr
        outs.add(p.stdout)
    assert len(outs) == 1 and "Duplicate definition of label 'L2'" in outs.pop()


def test_invalid_llvm_ir_gives_llvm_line_and_message(tmp_path):
    from pylower.lowering.llvm import llvm_to_ptx
    from pylower.lowering.target import parse_target
    with pytest.raises(PtxError) as e:
        llvm_to_ptx("define void @f() {\n  %x = add i32 1\n  ret void\n}\n", parse_target("sm_90"), "k.ll")
    assert (e.value.line, e.value.col) == (3, 3) and "expected ',' in arithmetic operation" in e.value.message
