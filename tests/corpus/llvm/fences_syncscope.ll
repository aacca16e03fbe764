; corpus: cpu=sm_90 features=+ptx90
; LLVM fences in every syncscope and ordering (fence.acquire/release/acq_rel/sc . cta/cluster/gpu/sys) between
; a data store and a flag store, plus the legacy membar intrinsics.
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @fences_syncscope(ptr addrspace(1) %data, ptr addrspace(1) %flag, i32 %v) {
entry:
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence syncscope("block") release
  store volatile i32 1, ptr addrspace(1) %flag, align 4
  fence syncscope("block") acquire
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence syncscope("block") acq_rel
  store volatile i32 2, ptr addrspace(1) %flag, align 4
  fence syncscope("block") seq_cst
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence syncscope("cluster") release
  store volatile i32 3, ptr addrspace(1) %flag, align 4
  fence syncscope("cluster") acquire
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence syncscope("cluster") seq_cst
  store volatile i32 4, ptr addrspace(1) %flag, align 4
  fence syncscope("device") release
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence syncscope("device") acquire
  store volatile i32 5, ptr addrspace(1) %flag, align 4
  fence syncscope("device") seq_cst
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence release
  store volatile i32 6, ptr addrspace(1) %flag, align 4
  fence acq_rel
  store volatile i32 %v, ptr addrspace(1) %data, align 4
  fence seq_cst
  store volatile i32 7, ptr addrspace(1) %flag, align 4
  tail call void @llvm.nvvm.membar.cta()
  store volatile i32 8, ptr addrspace(1) %flag, align 4
  tail call void @llvm.nvvm.membar.gl()
  store volatile i32 9, ptr addrspace(1) %flag, align 4
  tail call void @llvm.nvvm.membar.sys()
  store volatile i32 10, ptr addrspace(1) %flag, align 4
  ret void
}

declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.sys()
