; corpus: cpu=sm_75 features=+ptx90
; Block sum reduction as clang emits it: shared-memory tree in a loop with llvm.nvvm.barrier0 (auto-upgraded
; to barrier.cta.sync.aligned.all) and a final warp stage with shfl.sync.down.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@smem = internal addrspace(3) global [256 x float] undef, align 4

define ptx_kernel void @barrier0_block_reduce(ptr addrspace(1) %in, ptr addrspace(1) %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %base = mul i32 %ctaid, %ntid
  %gi = add i32 %base, %tid
  %gi64 = zext i32 %gi to i64
  %pin = getelementptr inbounds float, ptr addrspace(1) %in, i64 %gi64
  %v = load float, ptr addrspace(1) %pin, align 4
  %tid64 = zext i32 %tid to i64
  %ps = getelementptr inbounds [256 x float], ptr addrspace(3) @smem, i64 0, i64 %tid64
  store float %v, ptr addrspace(3) %ps, align 4
  tail call void @llvm.nvvm.barrier0()
  %half = lshr i32 %ntid, 1
  %big = icmp ugt i32 %half, 32
  br i1 %big, label %loop, label %warp

loop:
  %s = phi i32 [ %half, %entry ], [ %s.next, %latch ]
  %act = icmp ult i32 %tid, %s
  br i1 %act, label %add, label %latch

add:
  %o = add i32 %tid, %s
  %o64 = zext i32 %o to i64
  %po = getelementptr inbounds [256 x float], ptr addrspace(3) @smem, i64 0, i64 %o64
  %a = load float, ptr addrspace(3) %po, align 4
  %b = load float, ptr addrspace(3) %ps, align 4
  %c = fadd float %a, %b
  store float %c, ptr addrspace(3) %ps, align 4
  br label %latch

latch:
  tail call void @llvm.nvvm.barrier0()
  %s.next = lshr i32 %s, 1
  %more = icmp ugt i32 %s.next, 32
  br i1 %more, label %loop, label %warp

warp:
  %w0 = icmp ult i32 %tid, 32
  br i1 %w0, label %shfl, label %exit

shfl:
  %x0 = load float, ptr addrspace(3) %ps, align 4
  %p32 = getelementptr inbounds float, ptr addrspace(3) %ps, i64 32
  %x1 = load float, ptr addrspace(3) %p32, align 4
  %x = fadd float %x0, %x1
  %d16 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %x, i32 16, i32 31)
  %y16 = fadd float %x, %d16
  %d8 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %y16, i32 8, i32 31)
  %y8 = fadd float %y16, %d8
  %d4 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %y8, i32 4, i32 31)
  %y4 = fadd float %y8, %d4
  %d2 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %y4, i32 2, i32 31)
  %y2 = fadd float %y4, %d2
  %d1 = tail call float @llvm.nvvm.shfl.sync.down.f32(i32 -1, float %y2, i32 1, i32 31)
  %y1 = fadd float %y2, %d1
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %store, label %exit

store:
  %ctaid64 = zext i32 %ctaid to i64
  %pout = getelementptr inbounds float, ptr addrspace(1) %out, i64 %ctaid64
  store float %y1, ptr addrspace(1) %pout, align 4
  br label %exit

exit:
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare void @llvm.nvvm.barrier0()
declare float @llvm.nvvm.shfl.sync.down.f32(i32, float, i32, i32)
