; corpus: cpu=sm_75 features=+ptx90
; Numba-CUDA-style IR: generic (addrspace 0) pointers everywhere with addrspacecast from shared arrays, the
; cuda.atomic.max(float64) helper as Numba emits it (a cmpxchg loop on the i64 bit pattern, NaN-aware), cuda.atomic
; .add on float32 (atomicrmw fadd), cuda.atomic.compare_and_swap on i32, cuda.threadfence() as membar.gl,
; cuda.syncthreads(), and cuda.activemask()/ballot_sync() to elect a leader for a warp-aggregated increment.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@_cudapy_smem_partial = internal addrspace(3) global [128 x double] zeroinitializer, align 8

define ptx_kernel void @_ZN8__main__13block_max_f64(ptr %result, ptr %arr, i64 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = sext i32 %tid to i64
  %c64 = sext i32 %ctaid to i64
  %n64 = sext i32 %ntid to i64
  %m = mul nsw i64 %c64, %n64
  %gid = add nsw i64 %m, %t64
  %sm = addrspacecast ptr addrspace(3) @_cudapy_smem_partial to ptr
  %ps = getelementptr double, ptr %sm, i64 %t64
  %inr = icmp slt i64 %gid, %n
  br i1 %inr, label %load, label %neg

load:
  %pa = getelementptr double, ptr %arr, i64 %gid
  %x = load double, ptr %pa, align 8
  br label %store

neg:
  br label %store

store:
  %v = phi double [ %x, %load ], [ 0xFFF0000000000000, %neg ]
  store double %v, ptr %ps, align 8
  tail call void @llvm.nvvm.barrier0()
  %half0 = lshr i64 %n64, 1
  %anyh = icmp eq i64 %half0, 0
  br i1 %anyh, label %tail, label %tree

tree:
  %s = phi i64 [ %half0, %store ], [ %s2, %tree.next ]
  %lt = icmp slt i64 %t64, %s
  br i1 %lt, label %tree.body, label %tree.next

tree.body:
  %pj = getelementptr double, ptr %ps, i64 %s
  %a = load double, ptr %ps, align 8
  %b = load double, ptr %pj, align 8
  %gt = fcmp ogt double %b, %a
  %mx = select i1 %gt, double %b, double %a
  store double %mx, ptr %ps, align 8
  br label %tree.next

tree.next:
  tail call void @llvm.nvvm.barrier0()
  %s2 = lshr i64 %s, 1
  %done = icmp eq i64 %s2, 0
  br i1 %done, label %tail, label %tree

tail:
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %amax, label %exit

amax:
  %bm = load double, ptr %sm, align 8
  %bits = bitcast double %bm to i64
  %init = load i64, ptr %result, align 8
  br label %cas

cas:
  %old = phi i64 [ %init, %amax ], [ %seen, %cas.retry ]
  %oldd = bitcast i64 %old to double
  %isnan = fcmp uno double %oldd, 0.000000e+00
  %ge = fcmp oge double %oldd, %bm
  %stop = or i1 %isnan, %ge
  br i1 %stop, label %exit, label %cas.try

cas.try:
  %pair = cmpxchg ptr %result, i64 %old, i64 %bits seq_cst seq_cst, align 8
  %seen = extractvalue { i64, i1 } %pair, 0
  %okk = extractvalue { i64, i1 } %pair, 1
  br i1 %okk, label %exit, label %cas.retry

cas.retry:
  br label %cas

exit:
  ret void
}

define ptx_kernel void @_ZN8__main__15warp_agg_append(ptr %out, ptr %count, ptr %vals, i64 %n, float %thresh) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %t64 = sext i32 %tid to i64
  %c64 = sext i32 %ctaid to i64
  %n64 = sext i32 %ntid to i64
  %m = mul nsw i64 %c64, %n64
  %gid = add nsw i64 %m, %t64
  %inr = icmp slt i64 %gid, %n
  br i1 %inr, label %body, label %exit

body:
  %pv = getelementptr float, ptr %vals, i64 %gid
  %v = load float, ptr %pv, align 4
  %keep = fcmp ogt float %v, %thresh
  br i1 %keep, label %append, label %exit

append:
  %act = tail call i32 @llvm.nvvm.activemask()
  %bal = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 %act, i1 true)
  %lane = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %lt = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %below = and i32 %bal, %lt
  %rank = tail call i32 @llvm.ctpop.i32(i32 %below)
  %tot = tail call i32 @llvm.ctpop.i32(i32 %bal)
  %lowest = tail call i32 @llvm.cttz.i32(i32 %bal, i1 true)
  %leader = icmp eq i32 %lane, %lowest
  br i1 %leader, label %bump, label %bcast

bump:
  %base0 = atomicrmw add ptr %count, i32 %tot seq_cst, align 4
  br label %bcast

bcast:
  %bp = phi i32 [ %base0, %bump ], [ 0, %append ]
  %base = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 %act, i32 %bp, i32 %lowest, i32 31)
  %slot = add i32 %base, %rank
  %s64 = sext i32 %slot to i64
  %po = getelementptr float, ptr %out, i64 %s64
  store float %v, ptr %po, align 4
  tail call void @llvm.nvvm.membar.gl()
  br label %exit

exit:
  ret void
}

define ptx_kernel void @_ZN8__main__14grid_sum_f32_cas(ptr %acc, ptr %flag, ptr %vals, i64 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %t64 = sext i32 %tid to i64
  %c64 = sext i32 %ctaid to i64
  %n64 = sext i32 %ntid to i64
  %g64 = sext i32 %nct to i64
  %m = mul nsw i64 %c64, %n64
  %start = add nsw i64 %m, %t64
  %stride = mul nsw i64 %n64, %g64
  %any = icmp slt i64 %start, %n
  br i1 %any, label %loop, label %after

loop:
  %i = phi i64 [ %start, %entry ], [ %i2, %loop ]
  %pv = getelementptr float, ptr %vals, i64 %i
  %v = load float, ptr %pv, align 4
  %o = atomicrmw fadd ptr %acc, float %v seq_cst, align 4
  %i2 = add nsw i64 %i, %stride
  %c = icmp slt i64 %i2, %n
  br i1 %c, label %loop, label %after

after:
  tail call void @llvm.nvvm.membar.gl()
  tail call void @llvm.nvvm.barrier0()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %ticket, label %exit

ticket:
  %pair = cmpxchg ptr %flag, i32 0, i32 1 seq_cst seq_cst, align 4
  %won = extractvalue { i32, i1 } %pair, 1
  br i1 %won, label %first, label %exit

first:
  tail call void @llvm.nvvm.membar.gl()
  %fl = getelementptr i32, ptr %flag, i64 1
  store volatile i32 %tid, ptr %fl, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.membar.gl()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare i32 @llvm.ctpop.i32(i32)
declare i32 @llvm.cttz.i32(i32, i1)
