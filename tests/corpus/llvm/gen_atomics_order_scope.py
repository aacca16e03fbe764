"""Writes atomics_order_scope.ll (sm_90) and atomics_order_scope_sm75.ll next to this file: the atomics ordering x
syncscope matrix is too regular to keep by hand. Run `python tests/corpus/llvm/gen_atomics_order_scope.py`, then
`python -m pylower.tools.make_corpus tests/corpus/llvm` and refresh the references."""
import sys
from pathlib import Path

HERE = str(Path(__file__).resolve().parent)
ORD = ["monotonic", "acquire", "release", "acq_rel", "seq_cst"]
OPS = ["add", "xchg", "and", "or", "xor", "min", "max", "umin", "umax", "sub", "uinc_wrap", "udec_wrap"]
CX = [("monotonic","monotonic"),("acquire","acquire"),("release","monotonic"),("acq_rel","acquire"),("seq_cst","seq_cst"),("acquire","monotonic")]
LD = ["monotonic","acquire","seq_cst"]; ST = ["monotonic","release","seq_cst"]
def sc(s): return f'syncscope("{s}") ' if s else ""

def kernel(name, ptrty, base_expr_lines, scopes, red_f32):
    L = []
    L += base_expr_lines
    chk = "%seed"
    n = 0
    k = 0
    for s in scopes:
        for o in ORD:
            op = OPS[k % len(OPS)]; k += 1
            slot = k % 8
            L.append(f"  %p{n} = getelementptr inbounds i32, {ptrty} %base, i64 {slot}")
            L.append(f"  %r{n} = atomicrmw {op} {ptrty} %p{n}, i32 {chk} {sc(s)}{o}, align 4")
            L.append(f"  %c{n} = xor i32 %r{n}, {chk}"); chk = f"%c{n}"; n += 1
    for s in scopes:
        for (so, fo) in CX:
            slot = 8 + (n % 4)
            L.append(f"  %p{n} = getelementptr inbounds i32, {ptrty} %base, i64 {slot}")
            L.append(f"  %x{n} = cmpxchg {ptrty} %p{n}, i32 {chk}, i32 %seed {sc(s)}{so} {fo}, align 4")
            L.append(f"  %r{n} = extractvalue {{ i32, i1 }} %x{n}, 0")
            L.append(f"  %c{n} = add i32 %r{n}, {chk}"); chk = f"%c{n}"; n += 1
    for s in scopes:
        for o in LD:
            slot = 12 + (n % 4)
            L.append(f"  %p{n} = getelementptr inbounds i32, {ptrty} %base, i64 {slot}")
            L.append(f"  %r{n} = load atomic i32, {ptrty} %p{n} {sc(s)}{o}, align 4")
            L.append(f"  %c{n} = add i32 %r{n}, {chk}"); chk = f"%c{n}"; n += 1
        for o in ST:
            slot = 16 + (n % 4)
            L.append(f"  %p{n} = getelementptr inbounds i32, {ptrty} %base, i64 {slot}")
            L.append(f"  store atomic i32 {chk}, {ptrty} %p{n} {sc(s)}{o}, align 4"); n += 1
    if red_f32:
        for s in scopes:
            for o in ORD:
                L.append(f"  %p{n} = getelementptr inbounds float, {ptrty} %base, i64 {20 + n % 4}")
                L.append(f"  %r{n} = atomicrmw fadd {ptrty} %p{n}, float %f {sc(s)}{o}, align 4"); n += 1
    L.append(f"  store i32 {chk}, ptr addrspace(1) %out_slot, align 4")
    return L

def emit(cpu, scopes, kinds, header):
    out = [f"; corpus: cpu={cpu} features=+ptx90"] + header + [
        'target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"',
        'target triple = "nvptx64-nvidia-cuda"', "",
        "@slots = internal addrspace(3) global [32 x i32] undef, align 4", ""]
    for kind in kinds:
        name = f"order_scope_{kind}" + ("" if cpu == "sm_90" else "_" + cpu)
        if kind == "global":
            sig = "ptr addrspace(1) %g, ptr addrspace(1) noalias %out, i32 %v, float %f"
            pre = ["  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
                   "  %t64 = zext i32 %tid to i64",
                   "  %blk = and i64 %t64, 992",
                   "  %base = getelementptr inbounds i32, ptr addrspace(1) %g, i64 %blk",
                   "  %seed = add i32 %v, %tid",
                   "  %out_slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64"]
            ptrty = "ptr addrspace(1)"
        elif kind == "shared":
            sig = "ptr addrspace(1) noalias %out, i32 %v"
            pre = ["  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
                   "  %t64 = zext i32 %tid to i64",
                   "  %base = getelementptr inbounds [32 x i32], ptr addrspace(3) @slots, i64 0, i64 0",
                   "  %seed = add i32 %v, %tid",
                   "  %out_slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64"]
            ptrty = "ptr addrspace(3)"
        else:
            sig = "ptr addrspace(1) readonly %ptrtab, ptr addrspace(1) noalias %out, i32 %v"
            pre = ["  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()",
                   "  %t64 = zext i32 %tid to i64",
                   "  %pp = getelementptr inbounds ptr, ptr addrspace(1) %ptrtab, i64 %t64",
                   "  %base = load ptr, ptr addrspace(1) %pp, align 8",
                   "  %seed = add i32 %v, %tid",
                   "  %out_slot = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64"]
            ptrty = "ptr"
        out.append(f"define ptx_kernel void @{name}({sig}) {{")
        out.append("entry:")
        out += kernel(name, ptrty, pre, scopes, kind == "global")
        out += ["  ret void", "}", ""]
    out.append("declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()")
    return "\n".join(out) + "\n"

hdr90 = ["; Generated matrix (kept as source): atomicrmw over every syncscope (block, cluster, device, system) x every",
         "; ordering (monotonic acquire release acq_rel seq_cst), cycling the integer operations; cmpxchg with six",
         "; success/failure ordering pairs per scope; atomic loads and stores in each legal ordering per scope; for global",
         "; also unused-result fadd (red) in every scope x ordering. One kernel per address space: global, shared, generic",
         "; (pointer loaded from a table). Each result feeds the next operand, as a checksum chain."]
hdr75 = ["; The sm_75 (pre-sm_90) form of the atomics ordering matrix (no cluster scope): block, device, system x every ordering, on",
         "; global and generic pointers; LLVM emits the sm_70+ .sem.scope atom/ld/st forms and fence.sc for seq_cst."]
open(HERE + "/atomics_order_scope.ll", "w").write(emit("sm_90", ["block", "cluster", "device", ""], ["global", "shared", "generic"], hdr90))
open(HERE + "/atomics_order_scope_sm75.ll", "w").write(emit("sm_75", ["block", "device", ""], ["global", "generic"], hdr75))
