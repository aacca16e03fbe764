; corpus: cpu=sm_90 features=+ptx90
; Distributed shared memory in a thread-block cluster: each CTA reduces its slice, then reads its peers' partial
; sums through mapa (ld.shared::cluster) between aligned cluster barriers (barrier.cluster.arrive.aligned /
; wait.aligned), rank 0 accumulates with cluster-scope atomics on its own shared word from every CTA;
; a second kernel pushes a block of shared memory to the next CTA with cp.async.bulk shared::cta -> shared::cluster
; completing the peer's mbarrier, with getctarank / is_explicit_cluster queries and cluster-scope fences.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@part = internal addrspace(3) global [256 x float] undef, align 4
@total = internal addrspace(3) global i32 undef, align 4
@inbox = internal addrspace(3) global [256 x i32] undef, align 16
@outbox = internal addrspace(3) global [256 x i32] undef, align 16
@inbar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @cluster_dsmem_reduce(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out) "nvvm.cluster_dim"="4,1,1" {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %rank = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %ncta = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
  %b = shl i32 %ctaid, 8
  %gi = add i32 %b, %tid
  %g64 = zext i32 %gi to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %g64
  %x = load float, ptr addrspace(1) %pin, align 4
  %t64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @part, i64 0, i64 %t64
  store float %x, ptr addrspace(3) %ps, align 4
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %z, label %s0

z:
  store i32 0, ptr addrspace(3) @total, align 4
  br label %s0

s0:
  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  br label %peers

peers:
  %p = phi i32 [ 1, %s0 ], [ %p1, %peers ]
  %acc = phi float [ %x, %s0 ], [ %acc1, %peers ]
  %q = add i32 %rank, %p
  %peer = urem i32 %q, %ncta
  %rp = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %ps, i32 %peer)
  %pv = load float, ptr addrspace(7) %rp, align 4
  %acc1 = fadd float %acc, %pv
  %p1 = add nuw i32 %p, 1
  %pm = icmp ult i32 %p1, %ncta
  br i1 %pm, label %peers, label %sum

sum:
  %bits = fptosi float %acc1 to i32
  %r0 = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @total, i32 0)
  %old = atomicrmw add ptr addrspace(7) %r0, i32 %bits syncscope("cluster") monotonic, align 4
  %mx = atomicrmw max ptr addrspace(7) %r0, i32 %old syncscope("cluster") acq_rel, align 4
  fence syncscope("cluster") acq_rel
  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  %isr0 = icmp eq i32 %rank, 0
  %w = and i1 %isr0, %t0
  br i1 %w, label %write, label %fin

write:
  %tot = load atomic i32, ptr addrspace(3) @total syncscope("cluster") acquire, align 4
  %c64 = zext i32 %ctaid to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %c64
  store i32 %tot, ptr addrspace(1) %po, align 4
  br label %fin

fin:
  ; keep shared memory alive until every peer is done reading it
  tail call void @llvm.nvvm.barrier.cluster.arrive()
  tail call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

define ptx_kernel void @cluster_bulk_push(ptr addrspace(1) noalias readonly %in, ptr addrspace(1) noalias %out) "nvvm.cluster_dim"="2,1,1" {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %rank = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %expl = tail call i1 @llvm.nvvm.is_explicit_cluster()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %fill

init:
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @inbar, i32 1)
  tail call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  %tk = tail call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @inbar, i32 1024)
  br label %fill

fill:
  %pin = getelementptr inbounds i32, ptr addrspace(1) %in, i64 %t64
  %v = load i32, ptr addrspace(1) %pin, align 4
  %po = getelementptr inbounds [256 x i32], ptr addrspace(3) @outbox, i64 0, i64 %t64
  store i32 %v, ptr addrspace(3) %po, align 4
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta()
  tail call void @llvm.nvvm.barrier.cluster.arrive()
  tail call void @llvm.nvvm.barrier.cluster.wait()
  br i1 %t0, label %push, label %wait

push:
  %peer = xor i32 %rank, 1
  %rin = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @inbox, i32 %peer)
  %rbar = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @inbar, i32 %peer)
  %rbar3 = addrspacecast ptr addrspace(7) %rbar to ptr addrspace(3)
  tail call void @llvm.nvvm.cp.async.bulk.shared.cta.to.cluster(ptr addrspace(7) %rin, ptr addrspace(3) %rbar3, ptr addrspace(3) @outbox, i32 1024)
  br label %wait

wait:
  %ok = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cluster.space.cta(ptr addrspace(3) @inbar, i32 0)
  br i1 %ok, label %use, label %wait

use:
  %pi = getelementptr inbounds [256 x i32], ptr addrspace(3) @inbox, i64 0, i64 %t64
  %got = load i32, ptr addrspace(3) %pi, align 4
  %gen = addrspacecast ptr addrspace(3) %pi to ptr
  %owner = tail call i32 @llvm.nvvm.getctarank(ptr %gen)
  %e = zext i1 %expl to i32
  %s1 = add i32 %got, %owner
  %s2 = add i32 %s1, %e
  %pg = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %s2, ptr addrspace(1) %pg, align 4
  fence syncscope("cluster") seq_cst
  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
declare i1 @llvm.nvvm.is_explicit_cluster()
declare i32 @llvm.nvvm.getctarank(ptr)
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
declare void @llvm.nvvm.barrier.cluster.arrive.aligned()
declare void @llvm.nvvm.barrier.cluster.wait.aligned()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cluster.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.shared.cta.to.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(3), i32)
