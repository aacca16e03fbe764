; corpus: cpu=sm_90a features=+ptx90
; Warp-specialized Hopper kernel skeleton (CUTLASS / ThunderKittens / Triton warp_specialize shape): 3 warpgroups,
; the producer warpgroup gives registers back with setmaxnreg.dec and one elected lane feeds a 2-stage ring through
; TMA loads and full/empty mbarriers; consumer warpgroups take registers with setmaxnreg.inc and bracket their math
; with wgmma.fence / commit_group / wait_group; programmatic dependent launch via griddepcontrol.wait before the
; first global read and griddepcontrol.launch_dependents after the main loop. A second kernel is a PDL-chained
; elementwise epilogue with an early exit before griddepcontrol.wait.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smemA = internal addrspace(3) global [2 x [8192 x half]] undef, align 1024
@fullb = internal addrspace(3) global [2 x i64] undef, align 8
@emptyb = internal addrspace(3) global [2 x i64] undef, align 8

define ptx_kernel void @ws_producer_consumer(ptr byval([128 x i8]) align 64 %tmA, ptr addrspace(1) noalias %out, i32 %ktiles) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %wg = lshr i32 %tid, 7
  %warp = lshr i32 %tid, 5
  %bx = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %row0 = shl i32 %bx, 7
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %synced

init:
  %f0 = getelementptr inbounds [2 x i64], ptr addrspace(3) @fullb, i64 0, i64 0
  %f1 = getelementptr inbounds [2 x i64], ptr addrspace(3) @fullb, i64 0, i64 1
  %e0 = getelementptr inbounds [2 x i64], ptr addrspace(3) @emptyb, i64 0, i64 0
  %e1 = getelementptr inbounds [2 x i64], ptr addrspace(3) @emptyb, i64 0, i64 1
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %f0, i32 1)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %f1, i32 1)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %e0, i32 2)
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) %e1, i32 2)
  tail call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %synced

synced:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  tail call void @llvm.nvvm.griddepcontrol.wait()
  %isprod = icmp eq i32 %wg, 0
  br i1 %isprod, label %producer, label %consumer

producer:
  tail call void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 40)
  %w0 = icmp eq i32 %warp, 0
  br i1 %w0, label %pelect, label %pdone

pelect:
  %el = tail call { i32, i1 } @llvm.nvvm.elect.sync(i32 -1)
  %lead = extractvalue { i32, i1 } %el, 1
  %pgo = icmp sgt i32 %ktiles, 0
  %pl = and i1 %lead, %pgo
  br i1 %pl, label %ploop, label %pdone

ploop:
  %k = phi i32 [ 0, %pelect ], [ %k1, %pissue ]
  %st = and i32 %k, 1
  %st64 = zext i32 %st to i64
  %rnd = lshr i32 %k, 1
  %ph = and i32 %rnd, 1
  %eph = xor i32 %ph, 1
  %pe = getelementptr inbounds [2 x i64], ptr addrspace(3) @emptyb, i64 0, i64 %st64
  br label %pwait

pwait:
  %free = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %pe, i32 %eph)
  br i1 %free, label %pissue, label %pwait

pissue:
  %pf = getelementptr inbounds [2 x i64], ptr addrspace(3) @fullb, i64 0, i64 %st64
  %tok = tail call i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3) %pf, i32 16384)
  %dst = getelementptr inbounds [2 x [8192 x half]], ptr addrspace(3) @smemA, i64 0, i64 %st64, i64 0
  %dst7 = addrspacecast ptr addrspace(3) %dst to ptr addrspace(7)
  %kc = shl i32 %k, 6
  tail call void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7) %dst7, ptr addrspace(3) %pf, ptr %tmA, i32 %kc, i32 %row0, i16 0, i64 0, i1 false, i1 false, i32 0)
  %k1 = add nuw nsw i32 %k, 1
  %pm = icmp slt i32 %k1, %ktiles
  br i1 %pm, label %ploop, label %pdone

pdone:
  br label %exit

consumer:
  tail call void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 232)
  %cgo = icmp sgt i32 %ktiles, 0
  br i1 %cgo, label %cloop, label %cepi

cloop:
  %j = phi i32 [ 0, %consumer ], [ %j1, %crel ]
  %acc = phi float [ 0.0, %consumer ], [ %acc1, %crel ]
  %cs = and i32 %j, 1
  %cs64 = zext i32 %cs to i64
  %cr = lshr i32 %j, 1
  %cph = and i32 %cr, 1
  %cf = getelementptr inbounds [2 x i64], ptr addrspace(3) @fullb, i64 0, i64 %cs64
  br label %cwait

cwait:
  %rdy = tail call i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3) %cf, i32 %cph)
  br i1 %rdy, label %math, label %cwait

math:
  tail call void @llvm.nvvm.wgmma.fence.sync.aligned()
  %lt = and i32 %tid, 127
  %lt64 = zext i32 %lt to i64
  %pa = getelementptr inbounds [2 x [8192 x half]], ptr addrspace(3) @smemA, i64 0, i64 %cs64, i64 %lt64
  %a = load half, ptr addrspace(3) %pa, align 2
  %af = fpext half %a to float
  %acc1 = fadd float %acc, %af
  tail call void @llvm.nvvm.wgmma.commit_group.sync.aligned()
  tail call void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 0)
  %lane = and i32 %tid, 31
  %l0 = icmp eq i32 %lane, 0
  %wq = and i32 %warp, 3
  %w0c = icmp eq i32 %wq, 0
  %rel = and i1 %l0, %w0c
  br i1 %rel, label %carr, label %crel

carr:
  %ce = getelementptr inbounds [2 x i64], ptr addrspace(3) @emptyb, i64 0, i64 %cs64
  %ctk = tail call i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3) %ce, i32 1)
  br label %crel

crel:
  %j1 = add nuw nsw i32 %j, 1
  %cm = icmp slt i32 %j1, %ktiles
  br i1 %cm, label %cloop, label %cepi

cepi:
  %res = phi float [ 0.0, %consumer ], [ %acc1, %crel ]
  tail call void @llvm.nvvm.griddepcontrol.launch.dependents()
  %ct = add i32 %tid, -128
  %ob = shl i32 %bx, 8
  %oi = add i32 %ob, %ct
  %o64 = zext i32 %oi to i64
  %po = getelementptr inbounds float, ptr addrspace(1) %out, i64 %o64
  store float %res, ptr addrspace(1) %po, align 4
  ; named barrier over the two consumer warpgroups only
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 256)
  br label %exit

exit:
  ret void
}

define ptx_kernel void @pdl_epilogue(ptr addrspace(1) noalias readonly %x, ptr addrspace(1) noalias readonly %bias,
                                     ptr addrspace(1) noalias %y, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %oob = icmp sge i32 %gi, %n
  br i1 %oob, label %exit, label %body

body:
  %bi = and i32 %gi, 1023
  %bi64 = zext i32 %bi to i64
  %pb = getelementptr inbounds float, ptr addrspace(1) %bias, i64 %bi64
  %bv = load float, ptr addrspace(1) %pb, align 4
  ; x is produced by the preceding kernel in the stream
  tail call void @llvm.nvvm.griddepcontrol.wait()
  %g64 = sext i32 %gi to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %x, i64 %g64
  %xv = load float, ptr addrspace(1) %px, align 4
  %s = fadd float %xv, %bv
  %pos = fcmp ogt float %s, 0.0
  %r = select i1 %pos, float %s, float 0.0
  tail call void @llvm.nvvm.griddepcontrol.launch.dependents()
  %py = getelementptr inbounds float, ptr addrspace(1) %y, i64 %g64
  store float %r, ptr addrspace(1) %py, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare { i32, i1 } @llvm.nvvm.elect.sync(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare void @llvm.nvvm.griddepcontrol.wait()
declare void @llvm.nvvm.griddepcontrol.launch.dependents()
declare void @llvm.nvvm.setmaxnreg.dec.sync.aligned.u32(i32 immarg)
declare void @llvm.nvvm.setmaxnreg.inc.sync.aligned.u32(i32 immarg)
declare void @llvm.nvvm.wgmma.fence.sync.aligned()
declare void @llvm.nvvm.wgmma.commit_group.sync.aligned()
declare void @llvm.nvvm.wgmma.wait_group.sync.aligned(i64 immarg)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare i64 @llvm.nvvm.mbarrier.arrive.expect.tx.scope.cta.space.cta(ptr addrspace(3), i32)
declare i64 @llvm.nvvm.mbarrier.arrive.scope.cta.space.cta(ptr addrspace(3), i32)
declare i1 @llvm.nvvm.mbarrier.try.wait.parity.scope.cta.space.cta(ptr addrspace(3), i32)
declare void @llvm.nvvm.cp.async.bulk.tensor.g2s.tile.2d(ptr addrspace(7), ptr addrspace(3), ptr, i32, i32, i16, i64, i1, i1, i32)
