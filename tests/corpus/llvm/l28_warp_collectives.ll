; corpus: cpu=sm_80 features=+ptx90
; Warp collectives inside divergent code, as cooperative-groups-like libraries in Julia/Rust lower them:
; coalesced_threads() = activemask, labeled_partition via match.any.sync on i32 and i64 keys inside a loop over
; segments, a per-key leader (lowest lane of the match mask) doing an atomicrmw on a 64-bit counter, match.all
; with its predicate deciding a fast path, redux.sync add/min/or over the active mask in an if, and shfl.sync.*p
; (the predicate forms, i32 and f32) for an out-of-range-aware segmented scan.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @group_by_key_count(ptr addrspace(1) %keys, ptr addrspace(1) %counts, i32 %n, i32 %nbuckets) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nt = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nb = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %lane = tail call i32 @llvm.nvvm.read.ptx.sreg.laneid()
  %m = mul i32 %bid, %nt
  %start = add i32 %m, %tid
  %stride = mul i32 %nt, %nb
  %any = icmp slt i32 %start, %n
  br i1 %any, label %loop, label %exit

loop:
  %i = phi i32 [ %start, %entry ], [ %i2, %latch ]
  %ie = sext i32 %i to i64
  %pk = getelementptr inbounds i64, ptr addrspace(1) %keys, i64 %ie
  %k = load i64, ptr addrspace(1) %pk, align 8
  %act = tail call i32 @llvm.nvvm.activemask()
  %peers = tail call i32 @llvm.nvvm.match.any.sync.i64(i32 %act, i64 %k)
  %lead = tail call i32 @llvm.cttz.i32(i32 %peers, i1 true)
  %cnt = tail call i32 @llvm.ctpop.i32(i32 %peers)
  %isl = icmp eq i32 %lane, %lead
  br i1 %isl, label %bump, label %latch

bump:
  %kt = trunc i64 %k to i32
  %b = urem i32 %kt, %nbuckets
  %be = zext i32 %b to i64
  %pc = getelementptr inbounds i64, ptr addrspace(1) %counts, i64 %be
  %ce = zext i32 %cnt to i64
  %old = atomicrmw add ptr addrspace(1) %pc, i64 %ce syncscope("device") monotonic, align 8
  br label %latch

latch:
  %i2 = add nsw i32 %i, %stride
  %more = icmp slt i32 %i2, %n
  br i1 %more, label %loop, label %exit

exit:
  ret void
}

define ptx_kernel void @uniform_fast_path(ptr addrspace(1) %tab, ptr addrspace(1) %idx, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %idx, i64 %te
  %j = load i32, ptr addrspace(1) %pi, align 4
  %mr = tail call { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32 -1, i32 %j)
  %same = extractvalue { i32, i1 } %mr, 1
  br i1 %same, label %bcast, label %gather

bcast:
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %ld0, label %sh

ld0:
  %je = sext i32 %j to i64
  %pt = getelementptr inbounds float, ptr addrspace(1) %tab, i64 %je
  %v0 = load float, ptr addrspace(1) %pt, align 4
  br label %sh

sh:
  %vp = phi float [ %v0, %ld0 ], [ 0.000000e+00, %bcast ]
  %vb = tail call float @llvm.nvvm.shfl.sync.idx.f32(i32 -1, float %vp, i32 0, i32 31)
  br label %st

gather:
  %je2 = sext i32 %j to i64
  %pt2 = getelementptr inbounds float, ptr addrspace(1) %tab, i64 %je2
  %vg = load float, ptr addrspace(1) %pt2, align 4
  %am = tail call i32 @llvm.nvvm.activemask()
  %uniq = tail call i32 @llvm.nvvm.match.any.sync.i32(i32 %am, i32 %j)
  %pop = tail call i32 @llvm.ctpop.i32(i32 %uniq)
  %pf = uitofp i32 %pop to float
  %vs = fmul float %vg, %pf
  br label %st

st:
  %r = phi float [ %vb, %sh ], [ %vs, %gather ]
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %te
  store float %r, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @active_redux_stats(ptr addrspace(1) %xs, ptr addrspace(1) %stats, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %gi = add i32 %tid, %bid
  %in = icmp slt i32 %gi, %n
  br i1 %in, label %body, label %exit

body:
  %ge = sext i32 %gi to i64
  %px = getelementptr inbounds i32, ptr addrspace(1) %xs, i64 %ge
  %x = load i32, ptr addrspace(1) %px, align 4
  %pos = icmp sgt i32 %x, 0
  br i1 %pos, label %positive, label %exit

positive:
  %am = tail call i32 @llvm.nvvm.activemask()
  %s = tail call i32 @llvm.nvvm.redux.sync.add(i32 %x, i32 %am)
  %mn = tail call i32 @llvm.nvvm.redux.sync.umin(i32 %x, i32 %am)
  %orr = tail call i32 @llvm.nvvm.redux.sync.or(i32 %x, i32 %am)
  %lanem = tail call i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
  %below = and i32 %am, %lanem
  %first = icmp eq i32 %below, 0
  br i1 %first, label %pub, label %exit

pub:
  %a = atomicrmw add ptr addrspace(1) %stats, i32 %s monotonic, align 4
  %p1 = getelementptr inbounds i32, ptr addrspace(1) %stats, i64 1
  %b = atomicrmw umin ptr addrspace(1) %p1, i32 %mn monotonic, align 4
  %p2 = getelementptr inbounds i32, ptr addrspace(1) %stats, i64 2
  %c = atomicrmw or ptr addrspace(1) %p2, i32 %orr monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @segmented_scan_pred(ptr addrspace(1) %xs, ptr addrspace(1) %flags, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %te = zext i32 %tid to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %xs, i64 %te
  %x = load float, ptr addrspace(1) %px, align 4
  %pf = getelementptr inbounds i8, ptr addrspace(1) %flags, i64 %te
  %f8 = load i8, ptr addrspace(1) %pf, align 1
  %head = icmp ne i8 %f8, 0
  %hb = tail call i32 @llvm.nvvm.vote.ballot.sync(i32 -1, i1 %head)
  br label %step

step:
  %d = phi i32 [ 1, %entry ], [ %d2, %step.next ]
  %v = phi float [ %x, %entry ], [ %v2, %step.next ]
  %seg = phi i1 [ %head, %entry ], [ %seg2, %step.next ]
  %r = tail call { float, i1 } @llvm.nvvm.shfl.sync.up.f32p(i32 -1, float %v, i32 %d, i32 0)
  %rv = extractvalue { float, i1 } %r, 0
  %rok = extractvalue { float, i1 } %r, 1
  %segi = zext i1 %seg to i32
  %rs = tail call { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32 -1, i32 %segi, i32 %d, i32 0)
  %rsv = extractvalue { i32, i1 } %rs, 0
  %use = and i1 %rok, true
  %nseg = xor i1 %seg, true
  %doit = and i1 %use, %nseg
  br i1 %doit, label %add, label %step.next

add:
  %va = fadd float %v, %rv
  %sb = icmp ne i32 %rsv, 0
  br label %step.next

step.next:
  %v2 = phi float [ %va, %add ], [ %v, %step ]
  %seg2 = phi i1 [ %sb, %add ], [ %seg, %step ]
  %d2 = shl i32 %d, 1
  %m = icmp ult i32 %d2, 32
  br i1 %m, label %step, label %done

done:
  %allh = tail call i1 @llvm.nvvm.vote.all.sync(i32 -1, i1 %seg2)
  %o = select i1 %allh, float 0.000000e+00, float %v2
  %hbf = uitofp i32 %hb to float
  %o2 = fadd float %o, %hbf
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %te
  store float %o2, ptr addrspace(1) %po, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.laneid()
declare i32 @llvm.nvvm.read.ptx.sreg.lanemask.lt()
declare i32 @llvm.nvvm.activemask()
declare i32 @llvm.nvvm.match.any.sync.i64(i32, i64)
declare i32 @llvm.nvvm.match.any.sync.i32(i32, i32)
declare { i32, i1 } @llvm.nvvm.match.all.sync.i32p(i32, i32)
declare float @llvm.nvvm.shfl.sync.idx.f32(i32, float, i32, i32)
declare { float, i1 } @llvm.nvvm.shfl.sync.up.f32p(i32, float, i32, i32)
declare { i32, i1 } @llvm.nvvm.shfl.sync.up.i32p(i32, i32, i32, i32)
declare i32 @llvm.nvvm.vote.ballot.sync(i32, i1)
declare i1 @llvm.nvvm.vote.all.sync(i32, i1)
declare i32 @llvm.nvvm.redux.sync.add(i32, i32)
declare i32 @llvm.nvvm.redux.sync.umin(i32, i32)
declare i32 @llvm.nvvm.redux.sync.or(i32, i32)
declare i32 @llvm.cttz.i32(i32, i1)
declare i32 @llvm.ctpop.i32(i32)
