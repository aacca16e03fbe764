; corpus: cpu=sm_90a features=+ptx90
; Hopper TMA as a CUTLASS/Triton-style tile kernel reaches LLVM: one elected thread (elect.sync) arms an mbarrier
; with arrive.expect_tx and issues cp.async.bulk.tensor.2d global->shared (tile mode) for two operands, everyone
; waits with try_wait.parity, the result tile is written to shared memory, fence.proxy.async.shared::cta makes it
; visible to the async proxy, and thread 0 stores it with cp.async.bulk.tensor s2g and a reduce-add tile, then
; commit_group / wait_group.read. A second kernel prefetches tensor tiles and bulk ranges into L2 and copies a
; bulk range shared->global.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tileA = internal addrspace(3) global [4096 x half] undef, align 128
@tileB = internal addrspace(3) global [4096 x half] undef, align 128
@tileC = internal addrspace(3) global [4096 x float] undef, align 128
@ldbar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @tma_tile_add(ptr byval([128 x i8]) align 64 %tmA, ptr byval([128 x i8]) align 64 %tmB,
                                     ptr byval([128 x i8]) align 64 %tmC, i32 %ktiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %x0 = shl i32 %bx, 6
  %y0 = shl i32 %by, 6
  %warp = lshr i32 %tid, 5
  %w0 = icmp eq i32 %warp, 0
  br i1 %w0, label %elect, label %ready

elect:
  %el = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)
  %leader = extractvalue { i32, i1 } %el, 1
  br i1 %leader, label %initbar, label %ready

initbar:
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @ldbar, i32 1)
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta()
  tail call void @llvm.nvvm.prefetch.tensormap(ptr %tmA)
  tail call void @llvm.nvvm.prefetch.tensormap(ptr %tmB)
  br label %ready

ready:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t64 = zext i32 %tid to i64
  %have = icmp sgt i32 %ktiles, 0
  br i1 %have, label %kloop, label %epi

kloop:
  %k = phi i32 [ 0, %ready ], [ %k1, %kdone ]
  %acc = phi float [ 0.0, %ready ], [ %acc1, %kdone ]
  %kc = shl i32 %k, 6
  %lead = icmp eq i32 %tid, 0
  br i1 %lead, label %issue, label %wait

issue:
  %tok = tail call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @ldbar, i32 16384)
  %dA = addrspacecast ptr addrspace(3) @tileA to ptr addrspace(7)
  %dB = addrspacecast ptr addrspace(3) @tileB to ptr addrspace(7)
  tail call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dA, ptr addrspace(3) @ldbar, ptr %tmA, i32 %kc, i32 %y0, i16 0, i64 0, i1 false, i1 false, i32 0)
  tail call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dB, ptr addrspace(3) @ldbar, ptr %tmB, i32 %x0, i32 %kc, i16 0, i64 0, i1 false, i1 false, i32 0)
  br label %wait

wait:
  %par = and i32 %k, 1
  %ok = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @ldbar, i32 %par)
  br i1 %ok, label %compute, label %wait

compute:
  %pa = getelementptr inbounds [4096 x half], ptr addrspace(3) @tileA, i64 0, i64 %t64
  %pb = getelementptr inbounds [4096 x half], ptr addrspace(3) @tileB, i64 0, i64 %t64
  %a = load half, ptr addrspace(3) %pa, align 2
  %b = load half, ptr addrspace(3) %pb, align 2
  %af = fpext half %a to float
  %bf = fpext half %b to float
  %acc1 = tail call float @llvm.fma.f32(float %af, float %bf, float %acc)
  br label %kdone

kdone:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %k1 = add nuw nsw i32 %k, 1
  %km = icmp slt i32 %k1, %ktiles
  br i1 %km, label %kloop, label %epi

epi:
  %res = phi float [ 0.0, %ready ], [ %acc1, %kdone ]
  %pc = getelementptr inbounds [4096 x float], ptr addrspace(3) @tileC, i64 0, i64 %t64
  store float %res, ptr addrspace(3) %pc, align 4
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta()
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %store, label %exit

store:
  tail call void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3) @tileC, ptr %tmC, i32 %x0, i32 %y0, i64 0, i1 false)
  tail call void @llvm.nvvm.cp.async.bulk.tensor.reduce.add.tile.2d(ptr addrspace(3) @tileC, ptr %tmC, i32 %x0, i32 %y0, i64 0, i1 false)
  tail call void @llvm.nvvm.cp.async.bulk.commit.group()
  tail call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
  tail call void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3) @ldbar)
  br label %exit

exit:
  ret void
}

define ptx_kernel void @tma_prefetch_bulk(ptr byval([128 x i8]) align 64 %tm, ptr addrspace(1) noalias readonly %src,
                                          ptr addrspace(1) noalias %dst, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %bx = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c0 = shl i32 %bx, 7
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %pref, label %load

pref:
  tail call void @llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.2d(ptr %tm, i32 %c0, i32 0, i64 0, i1 false)
  %boff = zext i32 %c0 to i64
  %gs = getelementptr inbounds float, ptr addrspace(1) %src, i64 %boff
  tail call void @llvm.nvvm.cp.async.bulk.prefetch.L2(ptr addrspace(1) %gs, i32 512, i64 0, i1 false)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @ldbar, i32 1)
  br label %load

load:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %t0, label %bulk, label %waitld

bulk:
  %boff2 = zext i32 %c0 to i64
  %gs2 = getelementptr inbounds float, ptr addrspace(1) %src, i64 %boff2
  %tk = tail call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) @ldbar, i32 512)
  tail call void @llvm.nvvm.cp.async.bulk.global.to.shared.cta(ptr addrspace(3) @tileC, ptr addrspace(3) @ldbar, ptr addrspace(1) %gs2, i32 512, i64 0, i1 false)
  br label %waitld

waitld:
  %ok = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) @ldbar, i32 0)
  br i1 %ok, label %scale, label %waitld

scale:
  %inb = icmp ult i32 %tid, 128
  br i1 %inb, label %mul, label %sync2

mul:
  %t64 = zext i32 %tid to i64
  %p = getelementptr inbounds [4096 x float], ptr addrspace(3) @tileC, i64 0, i64 %t64
  %v = load float, ptr addrspace(3) %p, align 4
  %v2 = fmul float %v, 2.0
  store float %v2, ptr addrspace(3) %p, align 4
  br label %sync2

sync2:
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta()
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %t0, label %out, label %exit

out:
  %boff3 = zext i32 %c0 to i64
  %gd = getelementptr inbounds float, ptr addrspace(1) %dst, i64 %boff3
  tail call void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1) %gd, ptr addrspace(3) @tileC, i32 512, i64 0, i1 false)
  tail call void @llvm.nvvm.cp.async.bulk.commit.group()
  tail call void @llvm.nvvm.cp.async.bulk.wait.group(i32 0)
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
declare float @llvm.fma.f32(float, float, float)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.mbarrier.inval.shared(ptr addrspace(3))
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.prefetch.tensormap(ptr)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.s2g.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.tensor.reduce.add.tile.2d(ptr addrspace(3), ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.tensor.prefetch.tile.2d(ptr, i32, i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.prefetch.L2(ptr addrspace(1), i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.global.to.shared.cta(ptr addrspace(3), ptr addrspace(3), ptr addrspace(1), i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1), ptr addrspace(3), i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group(i32)
declare void @llvm.nvvm.cp.async.bulk.wait.group.read(i32)
