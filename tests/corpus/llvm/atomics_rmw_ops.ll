; corpus: cpu=sm_75 features=+ptx90
; atomicrmw operations as CUDA atomic* builtins reach LLVM: a shared-memory histogram flushed to global with
; adds (classic privatized histogram), every integer operation (add sub and or xor xchg min max umin umax
; uinc_wrap udec_wrap) on i32 and i64 through global pointers with used results, and the same set on shared and
; generic pointers (loaded from a pointer table) with unused results (red forms) inside a divergent branch.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@hist = internal addrspace(3) global [256 x i32] undef, align 4
@acc32 = internal addrspace(3) global [16 x i32] undef, align 4

define ptx_kernel void @histogram_privatized(ptr addrspace(1) noalias readonly %data, ptr addrspace(1) %bins, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %ctaid = tail call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %ntid = tail call i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
  %nct = tail call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  br label %clr

clr:
  %c = phi i32 [ %tid, %entry ], [ %c1, %clr ]
  %c64 = zext i32 %c to i64
  %pc = getelementptr inbounds [256 x i32], ptr addrspace(3) @hist, i64 0, i64 %c64
  store i32 0, ptr addrspace(3) %pc, align 4
  %c1 = add i32 %c, %ntid
  %cm = icmp ult i32 %c1, 256
  br i1 %cm, label %clr, label %clrdone

clrdone:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %b = mul i32 %ctaid, %ntid
  %gi = add i32 %b, %tid
  %stride = mul i32 %ntid, %nct
  %has = icmp ult i32 %gi, %n
  br i1 %has, label %acc, label %flush0

acc:
  %i = phi i32 [ %gi, %clrdone ], [ %i1, %acc ]
  %i64 = zext i32 %i to i64
  %pd = getelementptr inbounds i8, ptr addrspace(1) %data, i64 %i64
  %byte = load i8, ptr addrspace(1) %pd, align 1
  %bin = zext i8 %byte to i64
  %ph = getelementptr inbounds [256 x i32], ptr addrspace(3) @hist, i64 0, i64 %bin
  %o = atomicrmw add ptr addrspace(3) %ph, i32 1 syncscope("block") monotonic, align 4
  %i1 = add i32 %i, %stride
  %more = icmp ult i32 %i1, %n
  br i1 %more, label %acc, label %flush0

flush0:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  br label %flush

flush:
  %f = phi i32 [ %tid, %flush0 ], [ %f1, %skip ]
  %f64 = zext i32 %f to i64
  %pf = getelementptr inbounds [256 x i32], ptr addrspace(3) @hist, i64 0, i64 %f64
  %v = load i32, ptr addrspace(3) %pf, align 4
  %nz = icmp ne i32 %v, 0
  br i1 %nz, label %add, label %skip

add:
  %pg = getelementptr inbounds i32, ptr addrspace(1) %bins, i64 %f64
  %o2 = atomicrmw add ptr addrspace(1) %pg, i32 %v monotonic, align 4
  br label %skip

skip:
  %f1 = add i32 %f, %ntid
  %fm = icmp ult i32 %f1, 256
  br i1 %fm, label %flush, label %exit

exit:
  ret void
}

define ptx_kernel void @atomic_int_ops_global(ptr addrspace(1) %p32, ptr addrspace(1) %p64, ptr addrspace(1) noalias %out) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t64 = zext i32 %tid to i64
  %q = getelementptr inbounds i32, ptr addrspace(1) %p32, i64 1
  %a0 = atomicrmw add ptr addrspace(1) %p32, i32 %tid monotonic, align 4
  %a1 = atomicrmw sub ptr addrspace(1) %q, i32 %tid monotonic, align 4
  %q2 = getelementptr inbounds i32, ptr addrspace(1) %p32, i64 2
  %a2 = atomicrmw and ptr addrspace(1) %q2, i32 %a0 monotonic, align 4
  %a3 = atomicrmw or ptr addrspace(1) %q2, i32 %a1 monotonic, align 4
  %a4 = atomicrmw xor ptr addrspace(1) %q2, i32 %a2 monotonic, align 4
  %q3 = getelementptr inbounds i32, ptr addrspace(1) %p32, i64 3
  %a5 = atomicrmw xchg ptr addrspace(1) %q3, i32 %a3 monotonic, align 4
  %a6 = atomicrmw min ptr addrspace(1) %q3, i32 %a4 monotonic, align 4
  %a7 = atomicrmw max ptr addrspace(1) %q3, i32 %a5 monotonic, align 4
  %a8 = atomicrmw umin ptr addrspace(1) %q3, i32 %a6 monotonic, align 4
  %a9 = atomicrmw umax ptr addrspace(1) %q3, i32 %a7 monotonic, align 4
  %q4 = getelementptr inbounds i32, ptr addrspace(1) %p32, i64 4
  %a10 = atomicrmw uinc_wrap ptr addrspace(1) %q4, i32 1023 monotonic, align 4
  %a11 = atomicrmw udec_wrap ptr addrspace(1) %q4, i32 1023 monotonic, align 4
  %s32 = add i32 %a8, %a9
  %s32b = add i32 %s32, %a10
  %s32c = add i32 %s32b, %a11
  %r1 = getelementptr inbounds i64, ptr addrspace(1) %p64, i64 1
  %r2 = getelementptr inbounds i64, ptr addrspace(1) %p64, i64 2
  %b0 = atomicrmw add ptr addrspace(1) %p64, i64 %t64 monotonic, align 8
  %b1 = atomicrmw sub ptr addrspace(1) %p64, i64 %b0 monotonic, align 8
  %b2 = atomicrmw and ptr addrspace(1) %r1, i64 %b1 monotonic, align 8
  %b3 = atomicrmw or ptr addrspace(1) %r1, i64 %b2 monotonic, align 8
  %b4 = atomicrmw xor ptr addrspace(1) %r1, i64 %b3 monotonic, align 8
  %b5 = atomicrmw xchg ptr addrspace(1) %r2, i64 %b4 monotonic, align 8
  %b6 = atomicrmw min ptr addrspace(1) %r2, i64 %b5 monotonic, align 8
  %b7 = atomicrmw max ptr addrspace(1) %r2, i64 %b6 monotonic, align 8
  %b8 = atomicrmw umin ptr addrspace(1) %r2, i64 %b7 monotonic, align 8
  %b9 = atomicrmw umax ptr addrspace(1) %r2, i64 %b8 monotonic, align 8
  %b10 = atomicrmw uinc_wrap ptr addrspace(1) %r2, i64 %b9 monotonic, align 8
  %t = trunc i64 %b10 to i32
  %s = add i32 %s32c, %t
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %t64
  store i32 %s, ptr addrspace(1) %po, align 4
  ret void
}

define ptx_kernel void @atomic_int_ops_red(ptr addrspace(1) readonly %ptrtab, i32 %v, i64 %w) {
entry:
  ; device pointers read from a table are generic (as with a struct of pointers passed by reference)
  %gen32 = load ptr, ptr addrspace(1) %ptrtab, align 8
  %pt1 = getelementptr inbounds ptr, ptr addrspace(1) %ptrtab, i64 1
  %gen64 = load ptr, ptr addrspace(1) %pt1, align 8
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %lane = and i32 %tid, 15
  %l64 = zext i32 %lane to i64
  %s = getelementptr inbounds [16 x i32], ptr addrspace(3) @acc32, i64 0, i64 %l64
  %odd = and i32 %tid, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %sh, label %gen

sh:
  %0 = atomicrmw add ptr addrspace(3) %s, i32 %v monotonic, align 4
  %1 = atomicrmw sub ptr addrspace(3) %s, i32 %v monotonic, align 4
  %2 = atomicrmw and ptr addrspace(3) %s, i32 %v monotonic, align 4
  %3 = atomicrmw or ptr addrspace(3) %s, i32 %v monotonic, align 4
  %4 = atomicrmw xor ptr addrspace(3) %s, i32 %v monotonic, align 4
  %5 = atomicrmw min ptr addrspace(3) %s, i32 %v monotonic, align 4
  %6 = atomicrmw max ptr addrspace(3) %s, i32 %v monotonic, align 4
  %7 = atomicrmw umin ptr addrspace(3) %s, i32 %v monotonic, align 4
  %8 = atomicrmw umax ptr addrspace(3) %s, i32 %v monotonic, align 4
  %9 = atomicrmw uinc_wrap ptr addrspace(3) %s, i32 %v monotonic, align 4
  %10 = atomicrmw udec_wrap ptr addrspace(3) %s, i32 %v monotonic, align 4
  br label %join

gen:
  %g = getelementptr inbounds i32, ptr %gen32, i64 %l64
  %h = getelementptr inbounds i64, ptr %gen64, i64 %l64
  %11 = atomicrmw add ptr %g, i32 %v monotonic, align 4
  %12 = atomicrmw or ptr %g, i32 %v monotonic, align 4
  %13 = atomicrmw umax ptr %g, i32 %v monotonic, align 4
  %14 = atomicrmw uinc_wrap ptr %g, i32 %v monotonic, align 4
  %15 = atomicrmw add ptr %h, i64 %w monotonic, align 8
  %16 = atomicrmw and ptr %h, i64 %w monotonic, align 8
  %17 = atomicrmw min ptr %h, i64 %w monotonic, align 8
  %18 = atomicrmw xchg ptr %h, i64 %w monotonic, align 8
  br label %join

join:
  tail call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ntid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32)
