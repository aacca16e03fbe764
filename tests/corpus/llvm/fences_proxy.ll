; corpus: cpu=sm_90 features=+ptx90
; Every LLVM fence ordering (acquire release acq_rel seq_cst) in every syncscope (block cluster device system)
; around a produce/publish loop, and the sm_90 proxy fences a TMA / tensormap-updating kernel needs:
; fence.proxy.alias, fence.proxy.async{,.global,.shared::cta,.shared::cluster}, fence.proxy.tensormap::generic
; release/acquire in each scope, fence.mbarrier_init.release.cluster, plus the legacy membar intrinsics.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@stagebuf = internal addrspace(3) global [256 x i32] undef, align 16
@mbar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @fence_matrix_publish(ptr addrspace(1) %data, ptr addrspace(1) %flags, i32 %rounds) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %pd = getelementptr inbounds i32, ptr addrspace(1) %data, i64 %t64
  %go = icmp sgt i32 %rounds, 0
  br i1 %go, label %loop, label %exit

loop:
  %r = phi i32 [ 0, %entry ], [ %r1, %loop ]
  %sel = and i32 %r, 3
  store i32 %r, ptr addrspace(1) %pd, align 4
  fence syncscope("block") release
  store volatile i32 1, ptr addrspace(1) %flags, align 4
  fence syncscope("block") acquire
  store i32 %sel, ptr addrspace(1) %pd, align 4
  fence syncscope("block") acq_rel
  store volatile i32 2, ptr addrspace(1) %flags, align 4
  fence syncscope("block") seq_cst
  store i32 %r, ptr addrspace(1) %pd, align 4
  fence syncscope("cluster") release
  store volatile i32 3, ptr addrspace(1) %flags, align 4
  fence syncscope("cluster") acquire
  store i32 %sel, ptr addrspace(1) %pd, align 4
  fence syncscope("cluster") acq_rel
  store volatile i32 4, ptr addrspace(1) %flags, align 4
  fence syncscope("cluster") seq_cst
  store i32 %r, ptr addrspace(1) %pd, align 4
  fence syncscope("device") release
  store volatile i32 5, ptr addrspace(1) %flags, align 4
  fence syncscope("device") acquire
  store i32 %sel, ptr addrspace(1) %pd, align 4
  fence syncscope("device") acq_rel
  store volatile i32 6, ptr addrspace(1) %flags, align 4
  fence syncscope("device") seq_cst
  store i32 %r, ptr addrspace(1) %pd, align 4
  fence release
  store volatile i32 7, ptr addrspace(1) %flags, align 4
  fence acquire
  store i32 %sel, ptr addrspace(1) %pd, align 4
  fence acq_rel
  store volatile i32 8, ptr addrspace(1) %flags, align 4
  fence seq_cst
  %r1 = add nuw nsw i32 %r, 1
  %more = icmp slt i32 %r1, %rounds
  br i1 %more, label %loop, label %exit

exit:
  tail call void @llvm.nvvm.membar.cta()
  tail call void @llvm.nvvm.membar.gl()
  tail call void @llvm.nvvm.membar.sys()
  ret void
}

; generic-proxy writes to shared memory handed to the async proxy (bulk copy out), tensormap edited in global
; memory and published to the tensormap proxy, mbarrier init made visible to the cluster
define ptx_kernel void @proxy_fences(ptr addrspace(1) %dst, ptr addrspace(1) %tmap, i32 %v) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %fill

init:
  tail call void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3) @mbar, i32 1)
  tail call void @llvm.nvvm.fence.mbarrier_init.release.cluster()
  br label %fill

fill:
  %ps = getelementptr inbounds [256 x i32], ptr addrspace(3) @stagebuf, i64 0, i64 %t64
  %x = add i32 %v, %tid
  store i32 %x, ptr addrspace(3) %ps, align 4
  tail call void @llvm.nvvm.fence.proxy.async.shared_cta()
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br i1 %t0, label %copy, label %edit

copy:
  tail call void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1) %dst, ptr addrspace(3) @stagebuf, i32 1024, i64 0, i1 false)
  tail call void @llvm.nvvm.cp.async.bulk.commit.group()
  tail call void @llvm.nvvm.cp.async.bulk.wait.group.read(i32 0)
  br label %edit

edit:
  tail call void @llvm.nvvm.fence.proxy.async.global()
  tail call void @llvm.nvvm.fence.proxy.async()
  tail call void @llvm.nvvm.fence.proxy.async.shared_cluster()
  %lt = icmp ult i32 %tid, 32
  br i1 %lt, label %tm, label %done

tm:
  %pt = getelementptr inbounds i32, ptr addrspace(1) %tmap, i64 %t64
  store i32 %x, ptr addrspace(1) %pt, align 4
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.release.cta()
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.release.cluster()
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.release.sys()
  %gp = addrspacecast ptr addrspace(1) %tmap to ptr
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.cta(ptr %gp, i32 128)
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.cluster(ptr %gp, i32 128)
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr %gp, i32 128)
  tail call void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.sys(ptr %gp, i32 128)
  br label %done

done:
  tail call void @llvm.nvvm.fence.proxy.alias()
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.sys()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.mbarrier.init.shared(ptr addrspace(3), i32)
declare void @llvm.nvvm.fence.mbarrier_init.release.cluster()
declare void @llvm.nvvm.fence.proxy.alias()
declare void @llvm.nvvm.fence.proxy.async()
declare void @llvm.nvvm.fence.proxy.async.global()
declare void @llvm.nvvm.fence.proxy.async.shared_cta()
declare void @llvm.nvvm.fence.proxy.async.shared_cluster()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.cta()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.cluster()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.gpu()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.release.sys()
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.cta(ptr, i32)
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.cluster(ptr, i32)
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.gpu(ptr, i32)
declare void @llvm.nvvm.fence.proxy.tensormap_generic.acquire.sys(ptr, i32)
declare void @llvm.nvvm.cp.async.bulk.shared.cta.to.global(ptr addrspace(1), ptr addrspace(3), i32, i64, i1)
declare void @llvm.nvvm.cp.async.bulk.commit.group()
declare void @llvm.nvvm.cp.async.bulk.wait.group.read(i32)
