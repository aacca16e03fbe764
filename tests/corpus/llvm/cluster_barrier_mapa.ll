; corpus: cpu=sm_90 features=+ptx90
; Thread-block clusters from LLVM: barrier.cluster.arrive(.relaxed) / wait, cluster special registers, mapa to a
; peer CTA's shared memory (addrspace 7 = shared::cluster), remote stores and cluster-scope atomics, cluster fences.
target triple = "nvptx64-nvidia-cuda"

@slots = internal addrspace(3) global [256 x i32] undef, align 4
@count = internal addrspace(3) global i32 undef, align 4

define ptx_kernel void @cluster_barrier_mapa(ptr addrspace(1) %out) "nvvm.cluster_dim"="2,1,1" {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %rank = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
  %n = tail call i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
  %is0 = icmp eq i32 %tid, 0
  br i1 %is0, label %zero, label %go

zero:
  store i32 0, ptr addrspace(3) @count, align 4
  br label %go

go:
  tail call void @llvm.nvvm.barrier.cluster.arrive()
  tail call void @llvm.nvvm.barrier.cluster.wait()
  %r1 = add i32 %rank, 1
  %peer = urem i32 %r1, %n
  %rslot = getelementptr inbounds [256 x i32], ptr addrspace(3) @slots, i64 0, i64 %tid64
  %remote = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) %rslot, i32 %peer)
  %val = mul i32 %rank, 1000
  %v2 = add i32 %val, %tid
  store i32 %v2, ptr addrspace(7) %remote, align 4
  %rcount = tail call ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3) @count, i32 %peer)
  %old = atomicrmw add ptr addrspace(7) %rcount, i32 1 syncscope("cluster") monotonic, align 4
  fence syncscope("cluster") release
  tail call void @llvm.nvvm.barrier.cluster.arrive.relaxed()
  tail call void @llvm.nvvm.barrier.cluster.wait()
  fence syncscope("cluster") acquire
  %mine = load i32, ptr addrspace(3) %rslot, align 4
  %c = load i32, ptr addrspace(3) @count, align 4
  %s = add i32 %mine, %c
  %s2 = add i32 %s, %old
  %pout = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  store i32 %s2, ptr addrspace(1) %pout, align 4
  tail call void @llvm.nvvm.barrier.cluster.arrive()
  tail call void @llvm.nvvm.barrier.cluster.wait()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.ctarank()
declare i32 @llvm.nvvm.read.ptx.sreg.cluster.nctarank()
declare void @llvm.nvvm.barrier.cluster.arrive()
declare void @llvm.nvvm.barrier.cluster.arrive.relaxed()
declare void @llvm.nvvm.barrier.cluster.wait()
declare ptr addrspace(7) @llvm.nvvm.mapa.shared.cluster(ptr addrspace(3), i32)
