; corpus: cpu=sm_90 features=+ptx90
; sm_90 mbarrier producer/consumer ring as CUTLASS-style pipelines lower to LLVM: per stage a "full" barrier
; (arrive.expect_tx by the producer, bulk copy global->shared::cta completing the tx bytes) and an "empty"
; barrier (consumers arrive), try_wait.parity polling loops with a flipping phase bit, arrive.drop for a
; warp that leaves early, a time-limited try_wait.tl, test_wait.parity, relaxed cluster-scope arrivals, and
; mbarrier.inval at the end.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@ring = internal addrspace(3) global [4 x [1024 x float]] undef, align 128
@full = internal addrspace(3) global [4 x i64] undef, align 8
@empty = internal addrspace(3) global [4 x i64] undef, align 8

define ptx_kernel void @mbarrier_tx_ring(ptr addrspace(1) noalias readonly %src, ptr addrspace(1) noalias %dst, i32 %ntiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %sync

init:
  br label %iloop

iloop:
  %s = phi i64 [ 0, %init ], [ %s1, %iloop ]
  %pf = getelementptr inbounds [4 x i64], ptr addrspace(3) @full, i64 0, i64 %s
  %pe = getelementptr inbounds [4 x i64], ptr addrspace(3) @empty, i64 0, i64 %s
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %pf, i32 1)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %pe, i32 4)
  %s1 = add nuw nsw i64 %s, 1
  %sd = icmp eq i64 %s1, 4
  br i1 %sd, label %idone, label %iloop

idone:
  tail call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %sync

sync:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %isprod = icmp eq i32 %warp, 4
  %lane = and i32 %tid, 31
  %have = icmp sgt i32 %ntiles, 0
  br i1 %isprod, label %producer, label %consumer

producer:
  %plead = icmp eq i32 %lane, 0
  %pgo = and i1 %plead, %have
  br i1 %pgo, label %ploop, label %pexit

ploop:
  %i = phi i32 [ 0, %producer ], [ %i1, %pissue ]
  %stage = and i32 %i, 3
  %round = lshr i32 %i, 2
  %ephase = and i32 %round, 1
  %eparity = xor i32 %ephase, 1
  %st64 = zext i32 %stage to i64
  %pe2 = getelementptr inbounds [4 x i64], ptr addrspace(3) @empty, i64 0, i64 %st64
  br label %pwait

pwait:
  %ok = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %pe2, i32 %eparity)
  br i1 %ok, label %pissue, label %pwait

pissue:
  %pf2 = getelementptr inbounds [4 x i64], ptr addrspace(3) @full, i64 0, i64 %st64
  %tok = tail call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) %pf2, i32 4096)
  %off = mul i32 %i, 1024
  %off64 = zext i32 %off to i64
  %gsrc = getelementptr inbounds float, ptr addrspace(1) %src, i64 %off64
  %sdst = getelementptr inbounds [4 x [1024 x float]], ptr addrspace(3) @ring, i64 0, i64 %st64, i64 0
  %sdst7 = addrspacecast ptr addrspace(3) %sdst to ptr addrspace(7)
  %pf7 = addrspacecast ptr addrspace(3) %pf2 to ptr addrspace(7)
  tail call void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7) %sdst7, ptr addrspace(3) %pf2, ptr addrspace(1) %gsrc, i32 4096, i16 0, i64 0, i1 false, i1 false)
  %i1 = add nuw nsw i32 %i, 1
  %pm = icmp slt i32 %i1, %ntiles
  br i1 %pm, label %ploop, label %pexit

pexit:
  br label %teardown

consumer:
  br i1 %have, label %cloop, label %cdrop

cloop:
  %j = phi i32 [ 0, %consumer ], [ %j1, %crel ]
  %acc = phi float [ 0.0, %consumer ], [ %acc1, %crel ]
  %cs = and i32 %j, 3
  %cr = lshr i32 %j, 2
  %cpar = and i32 %cr, 1
  %cs64 = zext i32 %cs to i64
  %cf = getelementptr inbounds [4 x i64], ptr addrspace(3) @full, i64 0, i64 %cs64
  br label %cwait

cwait:
  %got = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %cf, i32 %cpar)
  br i1 %got, label %cuse, label %cwait

cuse:
  %t64 = zext i32 %tid to i64
  %pv = getelementptr inbounds [4 x [1024 x float]], ptr addrspace(3) @ring, i64 0, i64 %cs64, i64 %t64
  %v = load float, ptr addrspace(3) %pv, align 4
  %acc1 = fadd float %acc, %v
  %ce = getelementptr inbounds [4 x i64], ptr addrspace(3) @empty, i64 0, i64 %cs64
  %clead = icmp eq i32 %lane, 0
  br i1 %clead, label %carrive, label %crel

carrive:
  %ctok = tail call i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3) %ce, i32 1)
  br label %crel

crel:
  %j1 = add nuw nsw i32 %j, 1
  %cm = icmp slt i32 %j1, %ntiles
  br i1 %cm, label %cloop, label %cout

cout:
  %tt = zext i32 %tid to i64
  %po = getelementptr inbounds float, ptr addrspace(1) %dst, i64 %tt
  store float %acc1, ptr addrspace(1) %po, align 4
  br label %teardown

cdrop:
  ; no work: leave the empty barriers' expected count
  %dl = icmp eq i32 %lane, 0
  br i1 %dl, label %dodrop, label %teardown

dodrop:
  %d0 = tail call i64 @llvm.nvvm.mbarrier.arrive.drop.scope.cta.space.cta(ptr addrspace(3) @empty, i32 1)
  br label %teardown

teardown:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %t0, label %inval, label %exit

inval:
  tail call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) @full)
  tail call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) @empty)
  br label %exit

exit:
  ret void
}

; cluster-scope and relaxed variants: two CTAs signal each other's barrier (space.cluster), wait with a time limit
define ptx_kernel void @mbarrier_cluster_handshake(ptr addrspace(1) noalias %out, i32 %parity) "nvvm.cluster_dim"="2,1,1" {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rank = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %sync

init:
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @full, i32 1)
  tail call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %sync

sync:
  tail call void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  br i1 %t0, label %signal, label %done

signal:
  %peer = xor i32 %rank, 1
  %full0 = getelementptr inbounds [4 x i64], ptr addrspace(3) @full, i64 0, i64 0
  %rb = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %full0, i32 %peer)
  tail call void @llvm.nvvm.mbarrier.expect.tx.scope.cluster.space.cluster(ptr addrspace(7) %rb, i32 16)
  tail call void @llvm.nvvm.mbarrier.complete.tx.scope.cluster.space.cluster(ptr addrspace(7) %rb, i32 16)
  tail call void @llvm.nvvm.mbarrier.arrive.relaxed.scope.cluster.space.cluster(ptr addrspace(7) %rb, i32 1)
  br label %wait

wait:
  %ok = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.tl.scope.cluster.space.cta(ptr addrspace(3) @full, i32 %parity, i32 1000000)
  br i1 %ok, label %chk, label %wait

chk:
  %tw = tail call i1 @llvm.nvvm.mbarrier.test.wait.parity.scope.cta.space.cta(ptr addrspace(3) @full, i32 %parity)
  %twi = zext i1 %tw to i32
  %r64 = zext i32 %rank to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %r64
  store i32 %twi, ptr addrspace(1) %po, align 4
  br label %done

done:
  tail call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
declare void @llvm.nvvm.barrier.cluster.arrive.aligned()
declare void @llvm.nvvm.barrier.cluster.wait.aligned()
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3))
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.tl.scope.cluster.space.cta(ptr addrspace(3), i32, i32)
declare i1 @llvm.nvvm.mbarrier.test.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.drop.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.expect.tx.scope.cluster.space.cluster(ptr addrspace(7), i32)
declare void @llvm.nvvm.mbarrier.complete.tx.scope.cluster.space.cluster(ptr addrspace(7), i32)
declare void @llvm.nvvm.mbarrier.arrive.relaxed.scope.cluster.space.cluster(ptr addrspace(7), i32)
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cluster(ptr addrspace(7), ptr addrspace(3), ptr addrspace(1), i32, i16, i64, i1, i1)
