; corpus: cpu=sm_75 features=+ptx90
; Warp-uniform loop control with votes, as Julia (vote_any_sync/vote_all_sync) and Rust kernels write it: a
; per-lane Newton iteration that keeps the whole warp iterating while any lane has not converged (vote.any at the
; loop bottom), a work-stealing loop that exits when all lanes are done (vote.all), vote.uni guarding a uniform
; branch, ballot-compacted output inside a grid-stride loop, and bar.warp.sync between shared-memory phases of a
; warp-private transpose.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@wtile = internal addrspace(3) global [8 x [33 x float]] undef, align 4

define ptx_kernel void @newton_warp_converge(ptr addrspace(1) %xs, ptr addrspace(1) %out, float %tol, i32 %maxit) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %xs, i64 %te
  %a = load float, ptr addrspace(1) %px, align 4
  br label %it

it:
  %k = phi i32 [ 0, %entry ], [ %k1, %it.end ]
  %y = phi float [ %a, %entry ], [ %y2, %it.end ]
  %done = phi i1 [ false, %entry ], [ %done2, %it.end ]
  br i1 %done, label %it.end, label %step

step:
  %yy = fmul float %y, %y
  %f = fsub float %yy, %a
  %d = fmul float %y, 2.000000e+00
  %q = fdiv float %f, %d
  %yn = fsub float %y, %q
  %aq = tail call float @llvm.fabs.f32(float %q)
  %conv = fcmp olt float %aq, %tol
  br label %it.end

it.end:
  %y2 = phi float [ %yn, %step ], [ %y, %it ]
  %done2 = phi i1 [ %conv, %step ], [ true, %it ]
  %nd = xor i1 %done2, true
  %anyleft = tail call i1 @llvm.nvvm.vote.any.sync(i32 -1, i1 %nd)
  %k1 = add nuw nsw i32 %k, 1
  %lim = icmp slt i32 %k1, %maxit
  %go = and i1 %anyleft, %lim
  br i1 %go, label %it, label %fin

fin:
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %te
  store float %y2, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @steal_until_all_done(ptr addrspace(1) %next, ptr addrspace(1) %work, ptr addrspace(1) %res, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  br label %loop

loop:
  %acc = phi i32 [ 0, %entry ], [ %acc2, %latch ]
  %i = atomicrmw add ptr addrspace(1) %next, i32 1 syncscope("device") monotonic, align 4
  %has = icmp slt i32 %i, %n
  br i1 %has, label %do, label %latch

do:
  %ie = sext i32 %i to i64
  %pw = getelementptr inbounds i32, ptr addrspace(1) %work, i64 %ie
  %w = load i32, ptr addrspace(1) %pw, align 4
  %wa = add i32 %acc, %w
  br label %latch

latch:
  %acc2 = phi i32 [ %wa, %do ], [ %acc, %loop ]
  %fin = xor i1 %has, true
  %all = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %fin)
  br i1 %all, label %exit, label %loop

exit:
  %uni = tail call i1 @llvm.nvvm.vote.uni.sync(i32 -1, i1 %has)
  br i1 %uni, label %u, label %wr

u:
  %s = tail call i32 @llvm.nvvm.shfl.sync.bfly.i32(i32 -1, i32 %acc2, i32 1, i32 31)
  %acc3 = add i32 %acc2, %s
  br label %wr

wr:
  %r = phi i32 [ %acc3, %u ], [ %acc2, %exit ]
  %te = zext i32 %tid to i64
  %pr = getelementptr inbounds i32, ptr addrspace(1) %res, i64 %te
  store i32 %r, ptr addrspace(1) %pr, align 4
  ret void
}

define ptx_kernel void @ballot_compact_gridstride(ptr addrspace(1) %in, ptr addrspace(1) %out, ptr addrspace(1) %cnt, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nb = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %lane = and i32 %tid, 31
  %lmask = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %m = mul i32 %bid, %nt
  %start = add i32 %m, %tid
  %stride = mul i32 %nt, %nb
  %nr = add i32 %n, 31
  %nround = and i32 %nr, -32
  %any = icmp slt i32 %start, %nround
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ %start, %entry ], [ %i2, %loop.end ]
  %inr = icmp slt i32 %i, %n
  br i1 %inr, label %ld, label %vote

ld:
  %ie = sext i32 %i to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %ie
  %x = load i32, ptr addrspace(1) %pi, align 4
  %keep = icmp ne i32 %x, 0
  br label %vote

vote:
  %k = phi i1 [ %keep, %ld ], [ false, %loop ]
  %xv = phi i32 [ %x, %ld ], [ 0, %loop ]
  %bal = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %k)
  %pop = tail call i32 @llvm.ctpop.i32(i32 %bal)
  %l0 = icmp eq i32 %lane, 0
  %nz = icmp ne i32 %pop, 0
  %bump = and i1 %l0, %nz
  br i1 %bump, label %res, label %bc

res:
  %b0 = atomicrmw add ptr addrspace(1) %cnt, i32 %pop monotonic, align 4
  br label %bc

bc:
  %bp = phi i32 [ %b0, %res ], [ 0, %vote ]
  %base = tail call i32 @llvm.nvvm.shfl.sync.idx.i32(i32 -1, i32 %bp, i32 0, i32 31)
  br i1 %k, label %st, label %loop.end

st:
  %below = and i32 %bal, %lmask
  %r = tail call i32 @llvm.ctpop.i32(i32 %below)
  %slot = add i32 %base, %r
  %se = sext i32 %slot to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %se
  store i32 %xv, ptr addrspace(1) %po, align 4
  br label %loop.end

loop.end:
  %i2 = add i32 %i, %stride
  %more = icmp slt i32 %i2, %nround
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @warp_transpose32(ptr addrspace(1) %a, ptr addrspace(1) %b) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 31
  %w = lshr i32 %tid, 5
  %we = zext i32 %w to i64
  %le = zext i32 %lane to i64
  br label %row

row:
  %r = phi i32 [ 0, %entry ], [ %r1, %row ]
  %re = zext i32 %r to i64
  %g = shl nuw nsw i64 %re, 5
  %gi = add nuw nsw i64 %g, %le
  %pa = getelementptr inbounds float, ptr addrspace(1) %a, i64 %gi
  %v = load float, ptr addrspace(1) %pa, align 4
  %ps = getelementptr inbounds [8 x [33 x float]], ptr addrspace(3) @wtile, i64 0, i64 %we, i64 %le
  store float %v, ptr addrspace(3) %ps, align 4
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %rl = xor i32 %lane, %r
  %rle = zext i32 %rl to i64
  %pt = getelementptr inbounds [8 x [33 x float]], ptr addrspace(3) @wtile, i64 0, i64 %we, i64 %rle
  %t = load float, ptr addrspace(3) %pt, align 4
  %pb = getelementptr inbounds float, ptr addrspace(1) %b, i64 %gi
  store float %t, ptr addrspace(1) %pb, align 4
  tail call void @llvm.nvvm.bar.warp.sync(i32 -1)
  %r1 = add nuw nsw i32 %r, 1
  %m = icmp ult i32 %r1, 32
  br i1 %m, label %row, label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i1 @llvm.nvvm.vote.any.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i1 @llvm.nvvm.vote.uni.sync(i32, i1)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i32 @llvm.nvvm.shfl.sync.bfly.i32(i32, i32, i32, i32)
declare i32 @llvm.nvvm.shfl.sync.idx.i32(i32, i32, i32, i32)
declare void @llvm.nvvm.bar.warp.sync(i32)
declare i32 @llvm.ctpop.i32(i32)
declare float @llvm.fabs.f32(float)
