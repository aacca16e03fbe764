; corpus: cpu=sm_75 features=+ptx90
; The threadFenceReduction pattern (per-block partial sums, __threadfence, atomicInc ticket, __syncthreads, the
; last block finishes the sum) and a software grid barrier (arrive counter with atomic add, volatile spin on a
; generation word, __threadfence before and after) as pre-cooperative-groups CUDA code does it; fence seq_cst
; device from __threadfence, membar.gl from legacy code.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@sdata = internal addrspace(3) global [256 x float] undef, align 4
@am_last = internal addrspace(3) global i1 undef, align 1

define ptx_kernel void @threadfence_last_block(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) %partial,
                                               ptr addrspace(1) %retirement, ptr addrspace(1) noalias %out, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %b = shl i32 %ctaid, 8
  %gi = add i32 %b, %tid
  %t64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @sdata, i64 0, i64 %t64
  %inb = icmp ult i32 %gi, %n
  br i1 %inb, label %ld, label %st

ld:
  %g64 = zext i32 %gi to i64
  %pg = getelementptr inbounds float, ptr addrspace(1) %in, i64 %g64
  %x = load float, ptr addrspace(1) %pg, align 4
  br label %st

st:
  %v = phi float [ %x, %ld ], [ 0.0, %entry ]
  store float %v, ptr addrspace(3) %ps, align 4
  tail call void @llvm.nvvm.barrier0()
  br label %tree

tree:
  %s = phi i32 [ 128, %st ], [ %s1, %tlatch ]
  %act = icmp ult i32 %tid, %s
  br i1 %act, label %tadd, label %tlatch

tadd:
  %o = add i32 %tid, %s
  %o64 = zext i32 %o to i64
  %po = getelementptr inbounds [256 x float], ptr addrspace(3) @sdata, i64 0, i64 %o64
  %a = load float, ptr addrspace(3) %po, align 4
  %c = load float, ptr addrspace(3) %ps, align 4
  %sum = fadd float %a, %c
  store float %sum, ptr addrspace(3) %ps, align 4
  br label %tlatch

tlatch:
  tail call void @llvm.nvvm.barrier0()
  %s1 = lshr i32 %s, 1
  %nz = icmp ne i32 %s1, 0
  br i1 %nz, label %tree, label %publish

publish:
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %wpart, label %chk

wpart:
  %r = load float, ptr addrspace(3) getelementptr inbounds ([256 x float], ptr addrspace(3) @sdata, i64 0, i64 0), align 4
  %c64 = zext i32 %ctaid to i64
  %pp = getelementptr inbounds float, ptr addrspace(1) %partial, i64 %c64
  store float %r, ptr addrspace(1) %pp, align 4
  fence syncscope("device") seq_cst
  %last = add i32 %nct, -1
  %ticket = atomicrmw uinc_wrap ptr addrspace(1) %retirement, i32 %nct monotonic, align 4
  %islast = icmp eq i32 %ticket, %last
  store i1 %islast, ptr addrspace(3) @am_last, align 1
  br label %chk

chk:
  tail call void @llvm.nvvm.barrier0()
  %al = load i1, ptr addrspace(3) @am_last, align 1
  br i1 %al, label %final, label %exit

final:
  %has = icmp ult i32 %tid, %nct
  br i1 %has, label %floop, label %fstore

floop:
  %i = phi i32 [ %tid, %final ], [ %i1, %floop ]
  %acc = phi float [ 0.0, %final ], [ %acc1, %floop ]
  %i64 = zext i32 %i to i64
  %pi = getelementptr inbounds float, ptr addrspace(1) %partial, i64 %i64
  %pv = load volatile float, ptr addrspace(1) %pi, align 4
  %acc1 = fadd float %acc, %pv
  %i1 = add i32 %i, 256
  %fm = icmp ult i32 %i1, %nct
  br i1 %fm, label %floop, label %fstore

fstore:
  %mine = phi float [ 0.0, %final ], [ %acc1, %floop ]
  store float %mine, ptr addrspace(3) %ps, align 4
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %serial, label %exit

serial:
  %j = phi i32 [ 0, %fstore ], [ %j1, %serial ]
  %tot = phi float [ 0.0, %fstore ], [ %tot1, %serial ]
  %j64 = zext i32 %j to i64
  %pj = getelementptr inbounds [256 x float], ptr addrspace(3) @sdata, i64 0, i64 %j64
  %sv = load float, ptr addrspace(3) %pj, align 4
  %tot1 = fadd float %tot, %sv
  %j1 = add nuw nsw i32 %j, 1
  %jd = icmp eq i32 %j1, 256
  br i1 %jd, label %wout, label %serial

wout:
  store float %tot1, ptr addrspace(1) %out, align 4
  store i32 0, ptr addrspace(1) %retirement, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @grid_barrier_spin(ptr addrspace(1) %arrived, ptr addrspace(1) %generation, ptr addrspace(1) %buf, i32 %steps) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %g64 = zext i32 %gi to i64
  %p = getelementptr inbounds float, ptr addrspace(1) %buf, i64 %g64
  %t0 = icmp eq i32 %tid, 0
  %any = icmp sgt i32 %steps, 0
  br i1 %any, label %step, label %exit

step:
  %k = phi i32 [ 0, %entry ], [ %k1, %after ]
  %x = load float, ptr addrspace(1) %p, align 4
  %y = fmul float %x, 5.000000e-01
  store float %y, ptr addrspace(1) %p, align 4
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %arrive, label %after

arrive:
  %gen = load volatile i32, ptr addrspace(1) %generation, align 4
  tail call void @llvm.nvvm.membar.gl()
  %old = atomicrmw add ptr addrspace(1) %arrived, i32 1 syncscope("device") monotonic, align 4
  %last = add i32 %nct, -1
  %amlast = icmp eq i32 %old, %last
  br i1 %amlast, label %release, label %spin

release:
  store volatile i32 0, ptr addrspace(1) %arrived, align 4
  fence syncscope("device") seq_cst
  %g1 = add i32 %gen, 1
  store volatile i32 %g1, ptr addrspace(1) %generation, align 4
  br label %after

spin:
  %cur = load volatile i32, ptr addrspace(1) %generation, align 4
  %same = icmp eq i32 %cur, %gen
  br i1 %same, label %spin, label %fenced

fenced:
  fence syncscope("device") seq_cst
  br label %after

after:
  tail call void @llvm.nvvm.barrier0()
  %k1 = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k1, %steps
  br i1 %more, label %step, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.membar.gl()
