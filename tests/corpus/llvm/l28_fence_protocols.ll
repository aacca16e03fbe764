; corpus: cpu=sm_90 features=+ptx90
; Memory-ordering protocols as MLIR's gpu/nvvm lowering and hand-written Julia code emit them: a decoupled
; look-back scan (per-block status words written with release stores, predecessors polled with acquire loads
; in a loop, fence syncscope("device") acq_rel between), a last-block-done reduction (membar.gl + atomic ticket),
; a cluster-scope publish (fence syncscope("cluster") release + relaxed flag, acquire fence on the reader),
; a CTA-scope fence in a warp-specialized branch, and a seq_cst fence in a loop with volatile polling.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@lookback_sum = internal addrspace(3) global i32 0, align 4

define ptx_kernel void @decoupled_lookback(ptr addrspace(1) %status, ptr addrspace(1) %vals, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %be = zext i32 %bid to i64
  %pv = getelementptr inbounds i32, ptr addrspace(1) %vals, i64 %be
  %agg = load i32, ptr addrspace(1) %pv, align 4
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %publish, label %wait

publish:
  %ps = getelementptr inbounds i64, ptr addrspace(1) %status, i64 %be
  %aggz = zext i32 %agg to i64
  %w1 = or i64 %aggz, 4294967296
  store atomic i64 %w1, ptr addrspace(1) %ps syncscope("device") release, align 8
  %first = icmp eq i32 %bid, 0
  br i1 %first, label %done0, label %look

look:
  %p = phi i32 [ %bid, %publish ], [ %p1, %next ]
  %excl = phi i32 [ 0, %publish ], [ %excl2, %next ]
  %p1 = add i32 %p, -1
  %pe = zext i32 %p1 to i64
  %pps = getelementptr inbounds i64, ptr addrspace(1) %status, i64 %pe
  br label %poll

poll:
  %s = load atomic i64, ptr addrspace(1) %pps syncscope("device") acquire, align 8
  %flag = lshr i64 %s, 32
  %none = icmp eq i64 %flag, 0
  br i1 %none, label %backoff, label %got

backoff:
  tail call void @llvm.nvvm.nanosleep(i32 20)
  br label %poll

got:
  fence syncscope("device") acq_rel
  %sv = trunc i64 %s to i32
  %excl2 = add i32 %excl, %sv
  %incl = icmp eq i64 %flag, 2
  %atz = icmp eq i32 %p1, 0
  %stop = or i1 %incl, %atz
  br i1 %stop, label %final, label %next

next:
  br label %look

final:
  %tot = add i32 %excl2, %agg
  %totz = zext i32 %tot to i64
  %w2 = or i64 %totz, 8589934592
  store atomic i64 %w2, ptr addrspace(1) %ps syncscope("device") release, align 8
  store i32 %excl2, ptr addrspace(3) @lookback_sum, align 4
  br label %wait

done0:
  store i32 0, ptr addrspace(3) @lookback_sum, align 4
  br label %wait

wait:
  tail call void @llvm.nvvm.barrier0()
  %pre = load i32, ptr addrspace(3) @lookback_sum, align 4
  %te = zext i32 %tid to i64
  %bo = shl nuw nsw i64 %be, 8
  %oi = add i64 %bo, %te
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %oi
  store i32 %pre, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @last_block_reduce(ptr addrspace(1) %partial, ptr addrspace(1) %ticket, ptr addrspace(1) %result, i32 %x) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %nb = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %s = tail call i32 @llvm.nvvm.barrier0.popc(i32 %x)
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %store, label %exit

store:
  %be = zext i32 %bid to i64
  %pp = getelementptr inbounds i32, ptr addrspace(1) %partial, i64 %be
  store volatile i32 %s, ptr addrspace(1) %pp, align 4
  tail call void @llvm.nvvm.membar.gl()
  %tk = atomicrmw add ptr addrspace(1) %ticket, i32 1 syncscope("device") monotonic, align 4
  %last1 = add i32 %nb, -1
  %islast = icmp eq i32 %tk, %last1
  br i1 %islast, label %sum, label %exit

sum:
  fence syncscope("device") acquire
  br label %sl

sl:
  %i = phi i32 [ 0, %sum ], [ %i1, %sl ]
  %acc = phi i32 [ 0, %sum ], [ %acc1, %sl ]
  %ie = zext i32 %i to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %partial, i64 %ie
  %v = load volatile i32, ptr addrspace(1) %pi, align 4
  %acc1 = add i32 %acc, %v
  %i1 = add nuw i32 %i, 1
  %m = icmp ult i32 %i1, %nb
  br i1 %m, label %sl, label %wr

wr:
  store i32 %acc1, ptr addrspace(1) %result, align 4
  store atomic i32 0, ptr addrspace(1) %ticket syncscope("device") monotonic, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @cluster_publish(ptr addrspace(1) %buf, ptr addrspace(1) %flag, i32 %v) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rank = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %r0 = icmp eq i32 %rank, 0
  %t0 = icmp eq i32 %tid, 0
  br i1 %r0, label %writer, label %reader

writer:
  %te = zext i32 %tid to i64
  %pb = getelementptr inbounds i32, ptr addrspace(1) %buf, i64 %te
  store i32 %v, ptr addrspace(1) %pb, align 4
  fence syncscope("cluster") release
  br i1 %t0, label %raise, label %exit

raise:
  store atomic i32 1, ptr addrspace(1) %flag syncscope("cluster") monotonic, align 4
  br label %exit

reader:
  %f = load atomic i32, ptr addrspace(1) %flag syncscope("cluster") monotonic, align 4
  %up = icmp ne i32 %f, 0
  br i1 %up, label %rd, label %reader

rd:
  fence syncscope("cluster") acquire
  %te2 = zext i32 %tid to i64
  %pb2 = getelementptr inbounds i32, ptr addrspace(1) %buf, i64 %te2
  %x = load i32, ptr addrspace(1) %pb2, align 4
  %y = add i32 %x, %rank
  store i32 %y, ptr addrspace(1) %pb2, align 4
  fence syncscope("block") seq_cst
  br label %exit

exit:
  ret void
}

define ptx_kernel void @warp_specialized_fences(ptr addrspace(1) %data, ptr addrspace(1) %mail, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %w0 = icmp eq i32 %warp, 0
  %any = icmp sgt i32 %n, 0
  br i1 %w0, label %prod, label %cons

prod:
  br i1 %any, label %pl, label %fin

pl:
  %i = phi i32 [ 0, %prod ], [ %i1, %pl ]
  %ie = zext i32 %i to i64
  %pd = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %ie
  store volatile i32 %i, ptr addrspace(1) %pd, align 4
  fence syncscope("block") release
  store volatile i32 %i, ptr addrspace(1) %mail, align 4
  %i1 = add nuw nsw i32 %i, 1
  %m = icmp slt i32 %i1, %n
  br i1 %m, label %pl, label %fin

cons:
  %want = add i32 %n, -1
  br label %cl

cl:
  %seen = load volatile i32, ptr addrspace(1) %mail, align 4
  fence seq_cst
  %ok = icmp sge i32 %seen, %want
  br i1 %ok, label %fin, label %cl

fin:
  tail call void @llvm.nvvm.membar.cta()
  tail call void @llvm.nvvm.barrier0()
  tail call void @llvm.nvvm.membar.sys()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare void @llvm.nvvm.barrier0()
declare i32 @llvm.nvvm.barrier0.popc(i32)
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.sys()
declare void @llvm.nvvm.nanosleep(i32)
