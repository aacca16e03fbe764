; corpus: cpu=sm_90 features=+ptx90
; Hopper producer/consumer pipelines as Triton's and MLIR's nvgpu lowering emit them: a 2-stage ring of full/empty
; mbarriers (init by one thread + fence.mbarrier_init + cluster-style arrive/wait to publish), the producer warp
; electing one lane (elect.sync) to post arrive.expect_tx and a bulk global->shared copy, consumers polling
; try_wait.parity with a flipping phase and arriving on the empty barrier; a cluster kernel that reduces into
; rank 0's shared memory through mapa (atomicrmw on addrspace(7)) between barrier.cluster arrive/wait.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@full = internal addrspace(3) global [2 x i64] undef, align 8
@empty = internal addrspace(3) global [2 x i64] undef, align 8
@ring = internal addrspace(3) global [2 x [1024 x float]] undef, align 128
@cl_acc = internal addrspace(3) global [32 x i32] undef, align 4

define ptx_kernel void @ws_bulk_ring(ptr addrspace(1) %src, ptr addrspace(1) %dst, i32 %ntiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %warp = lshr i32 %tid, 5
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %sync0

init:
  %f0 = getelementptr inbounds [2 x i64], ptr addrspace(3) @full, i64 0, i64 0
  %f1 = getelementptr inbounds [2 x i64], ptr addrspace(3) @full, i64 0, i64 1
  %e0 = getelementptr inbounds [2 x i64], ptr addrspace(3) @empty, i64 0, i64 0
  %e1 = getelementptr inbounds [2 x i64], ptr addrspace(3) @empty, i64 0, i64 1
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %f0, i32 1)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %f1, i32 1)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %e0, i32 4)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %e1, i32 4)
  tail call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %sync0

sync0:
  tail call void @llvm.nvvm.barrier0()
  %isprod = icmp eq i32 %warp, 4
  %any = icmp sgt i32 %ntiles, 0
  br i1 %isprod, label %producer, label %consumer

producer:
  %el = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)
  %leader = extractvalue { i32, i1 } %el, 1
  br i1 %any, label %pl, label %exit

pl:
  %k = phi i32 [ 0, %producer ], [ %k1, %pl.next ]
  %stage = and i32 %k, 1
  %se = zext i32 %stage to i64
  %ph = lshr i32 %k, 1
  %epar = xor i32 %ph, 1
  %epar1 = and i32 %epar, 1
  %pe = getelementptr inbounds [2 x i64], ptr addrspace(3) @empty, i64 0, i64 %se
  br label %pwait

pwait:
  %ok = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %pe, i32 %epar1)
  br i1 %ok, label %pissue, label %pwait

pissue:
  br i1 %leader, label %post, label %pl.next

post:
  %pf = getelementptr inbounds [2 x i64], ptr addrspace(3) @full, i64 0, i64 %se
  %tok = tail call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) %pf, i32 4096)
  %pr = getelementptr inbounds [2 x [1024 x float]], ptr addrspace(3) @ring, i64 0, i64 %se, i64 0
  %ke = zext i32 %k to i64
  %go = shl nuw nsw i64 %ke, 10
  %pg = getelementptr inbounds float, ptr addrspace(1) %src, i64 %go
  tail call void @llvm.nvvm.cp.async.bulk.global.to.shared.cta(ptr addrspace(3) %pr, ptr addrspace(3) %pf, ptr addrspace(1) %pg, i32 4096, i64 0, i1 false)
  br label %pl.next

pl.next:
  %k1 = add nuw nsw i32 %k, 1
  %pm = icmp slt i32 %k1, %ntiles
  br i1 %pm, label %pl, label %exit

consumer:
  %lane = and i32 %tid, 31
  br i1 %any, label %cl, label %exit

cl:
  %c = phi i32 [ 0, %consumer ], [ %c1, %cl.next ]
  %acc = phi float [ 0.000000e+00, %consumer ], [ %acc2, %cl.next ]
  %cs = and i32 %c, 1
  %cse = zext i32 %cs to i64
  %cph = lshr i32 %c, 1
  %cpar = and i32 %cph, 1
  %cf = getelementptr inbounds [2 x i64], ptr addrspace(3) @full, i64 0, i64 %cse
  br label %cwait

cwait:
  %got = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %cf, i32 %cpar)
  br i1 %got, label %cuse, label %cwait

cuse:
  %te = zext i32 %tid to i64
  %pv = getelementptr inbounds [2 x [1024 x float]], ptr addrspace(3) @ring, i64 0, i64 %cse, i64 %te
  %v = load float, ptr addrspace(3) %pv, align 4
  %acc2 = fadd float %acc, %v
  %l0 = icmp eq i32 %lane, 0
  br i1 %l0, label %rel, label %cl.next

rel:
  %ce = getelementptr inbounds [2 x i64], ptr addrspace(3) @empty, i64 0, i64 %cse
  %t2 = tail call i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3) %ce, i32 1)
  br label %cl.next

cl.next:
  %c1 = add nuw nsw i32 %c, 1
  %cm = icmp slt i32 %c1, %ntiles
  br i1 %cm, label %cl, label %cdone

cdone:
  %te2 = zext i32 %tid to i64
  %po = getelementptr inbounds float, ptr addrspace(1) %dst, i64 %te2
  store float %acc2, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @cluster_dsmem_reduce(ptr addrspace(1) %inp, ptr addrspace(1) %out) "nvvm.cluster_dim"="4,1,1" {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %rank = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %bid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %small = icmp ult i32 %tid, 32
  %te = zext i32 %tid to i64
  %ps = getelementptr inbounds [32 x i32], ptr addrspace(3) @cl_acc, i64 0, i64 %te
  br i1 %small, label %zero, label %s1

zero:
  store i32 0, ptr addrspace(3) %ps, align 4
  br label %s1

s1:
  tail call void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
  tail call void @llvm.nvvm.barrier.cluster.wait.aligned()
  %be = zext i32 %bid to i64
  %b8 = shl nuw nsw i64 %be, 8
  %gi = add i64 %b8, %te
  %pg = getelementptr inbounds i32, ptr addrspace(1) %inp, i64 %gi
  %x = load i32, ptr addrspace(1) %pg, align 4
  %slot = and i32 %tid, 31
  %sle = zext i32 %slot to i64
  %pl = getelementptr inbounds [32 x i32], ptr addrspace(3) @cl_acc, i64 0, i64 %sle
  %remote = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %pl, i32 0)
  %old = atomicrmw add ptr addrspace(7) %remote, i32 %x syncscope("cluster") monotonic, align 4
  %neg = icmp slt i32 %x, 0
  br i1 %neg, label %mx, label %s2

mx:
  %o2 = atomicrmw max ptr addrspace(7) %remote, i32 %x syncscope("cluster") release, align 4
  br label %s2

s2:
  tail call void @llvm.nvvm.barrier.cluster.arrive()
  tail call void @llvm.nvvm.barrier.cluster.wait()
  %r0 = icmp eq i32 %rank, 0
  %w = and i1 %r0, %small
  br i1 %w, label %wr, label %exit

wr:
  %v = load i32, ptr addrspace(3) %ps, align 4
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %te
  store i32 %v, ptr addrspace(1) %po, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare void @llvm.nvvm.barrier0()
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cta(ptr addrspace(3), ptr addrspace(3), ptr addrspace(1), i32, i64, i1)
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
declare void @llvm.nvvm.barrier.cluster.arrive.relaxed.aligned()
declare void @llvm.nvvm.barrier.cluster.wait.aligned()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.wait()
