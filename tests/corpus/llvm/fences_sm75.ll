; corpus: cpu=sm_75 features=+ptx90
; The fence matrix compiled for sm_75 (any pre-sm_90 target) (no cluster scope): LLVM lowers acquire/release/acq_rel to fence.acq_rel.<scope>
; and seq_cst to fence.sc.<scope> on sm_70..sm_89 (fence.acquire / fence.release need sm_90), membar.* unchanged.
target triple = "nvptx64-nvidia-cuda"

@stagebuf = internal addrspace(3) global [256 x i32] undef, align 16
@mbar = internal addrspace(3) global i64 undef, align 8

define ptx_kernel void @fence_matrix_publish_sm75(ptr addrspace(1) %data, ptr addrspace(1) %flags, i32 %rounds) {
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
  store volatile i32 3, ptr addrspace(1) %flags, align 4
  store i32 %sel, ptr addrspace(1) %pd, align 4
  store volatile i32 4, ptr addrspace(1) %flags, align 4
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


declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.membar.cta()
declare void @llvm.nvvm.membar.gl()
declare void @llvm.nvvm.membar.sys()
