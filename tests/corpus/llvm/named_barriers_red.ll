; corpus: cpu=sm_75 features=+ptx90
; Named / counted CTA barriers with the LLVM 20+ intrinsic names: barrier.cta.sync.aligned.{all,count},
; barrier.cta.arrive.aligned.count, barrier.cta.red.{popc,and,or}.aligned.all, non-aligned barrier.cta.sync.all.
target triple = "nvptx64-nvidia-cuda"

@buf = internal addrspace(3) global [128 x i32] undef, align 4

define ptx_kernel void @named_barriers_red(ptr addrspace(1) %out, i32 %limit) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %tid64 = zext i32 %tid to i64
  %slot = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i64 0, i64 %tid64
  %prod = icmp ult i32 %tid, 64
  br i1 %prod, label %producer, label %consumer

producer:
  %v = mul i32 %tid, 7
  store i32 %v, ptr addrspace(3) %slot, align 4
  tail call void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32 1, i32 128)
  br label %join

consumer:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.count(i32 1, i32 128)
  %src = sub i32 %tid, 64
  %src64 = zext i32 %src to i64
  %ps = getelementptr inbounds [128 x i32], ptr addrspace(3) @buf, i64 0, i64 %src64
  %w = load i32, ptr addrspace(3) %ps, align 4
  %pg = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %tid64
  store i32 %w, ptr addrspace(1) %pg, align 4
  br label %join

join:
  tail call void @llvm.nvvm.barrier.cta.sync.all(i32 0)
  %c = icmp slt i32 %tid, %limit
  %cnt = tail call i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32 2, i1 %c)
  %all = tail call i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32 3, i1 %c)
  %any = tail call i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32 0, i1 %c)
  %alli = zext i1 %all to i32
  %anyi = zext i1 %any to i32
  %s1 = shl i32 %alli, 16
  %s2 = shl i32 %anyi, 17
  %r0 = or i32 %cnt, %s1
  %r = or i32 %r0, %s2
  %o = add i64 %tid64, 128
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %o
  store i32 %r, ptr addrspace(1) %po, align 4
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.all(i32)
declare void @llvm.nvvm.barrier.cta.sync.aligned.count(i32, i32)
declare void @llvm.nvvm.barrier.cta.arrive.aligned.count(i32, i32)
declare i32 @llvm.nvvm.barrier.cta.red.popc.aligned.all(i32, i1)
declare i1 @llvm.nvvm.barrier.cta.red.and.aligned.all(i32, i1)
declare i1 @llvm.nvvm.barrier.cta.red.or.aligned.all(i32, i1)
