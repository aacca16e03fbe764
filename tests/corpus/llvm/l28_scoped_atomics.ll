; corpus: cpu=sm_90 features=+ptx90
; MLIR (nvvm dialect -> LLVM) style atomics with explicit syncscopes: a work queue with block-scope shared
; counters and device-scope global tails, cluster-scope flags, singlethread (signal-fence-like) accesses, every
; ordering (monotonic/acquire/release/acq_rel/seq_cst); atomicrmw fadd/fmin/fmax on f32/f64/half, uinc_wrap /
; udec_wrap ring indices, cmpxchg loops with acquire failure order, inside loops and branches, through global,
; shared and generic pointers with i16/i32/i64 widths.
target datalayout = "e-p6:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@q_head = internal addrspace(3) global i32 0, align 4
@q_tail = internal addrspace(3) global i32 0, align 4
@s_hist = internal addrspace(3) global [64 x i16] undef, align 2
@s_fmax = internal addrspace(3) global float 0.0, align 4

define ptx_kernel void @block_work_queue(ptr addrspace(1) %items, ptr addrspace(1) %out, ptr addrspace(1) %gtail, i32 %nitems) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %init, label %sync0

init:
  store atomic i32 0, ptr addrspace(3) @q_head syncscope("block") monotonic, align 4
  store atomic i32 0, ptr addrspace(3) @q_tail syncscope("block") release, align 4
  br label %sync0

sync0:
  tail call void @llvm.nvvm.barrier0()
  br label %pop

pop:
  %h = atomicrmw add ptr addrspace(3) @q_head, i32 1 syncscope("block") acq_rel, align 4
  %have = icmp slt i32 %h, %nitems
  br i1 %have, label %work, label %drain

work:
  %he = sext i32 %h to i64
  %pi = getelementptr inbounds i32, ptr addrspace(1) %items, i64 %he
  %it = load i32, ptr addrspace(1) %pi, align 4
  %odd = and i32 %it, 1
  %isodd = icmp ne i32 %odd, 0
  br i1 %isodd, label %emit, label %pop

emit:
  %slot = atomicrmw add ptr addrspace(1) %gtail, i32 1 syncscope("device") monotonic, align 4
  %se = sext i32 %slot to i64
  %po = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %se
  store i32 %it, ptr addrspace(1) %po, align 4
  %bin = and i32 %it, 63
  %be = zext i32 %bin to i64
  %ph = getelementptr inbounds [64 x i16], ptr addrspace(3) @s_hist, i64 0, i64 %be
  %hv = atomicrmw add ptr addrspace(3) %ph, i16 1 syncscope("block") monotonic, align 2
  br label %pop

drain:
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %publish, label %exit

publish:
  %cnt = load atomic i32, ptr addrspace(3) @q_head syncscope("block") acquire, align 4
  %pt = getelementptr inbounds i32, ptr addrspace(1) %gtail, i64 1
  %prev = atomicrmw max ptr addrspace(1) %pt, i32 %cnt syncscope("device") release, align 4
  br label %exit

exit:
  ret void
}

define ptx_kernel void @float_atomics_scoped(ptr addrspace(1) %g, ptr %gen, ptr addrspace(1) %xs, i32 %n) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %t0 = icmp eq i32 %tid, 0
  br i1 %t0, label %z, label %s0

z:
  store float 0xFFF0000000000000, ptr addrspace(3) @s_fmax, align 4
  br label %s0

s0:
  tail call void @llvm.nvvm.barrier0()
  %any = icmp slt i32 %tid, %n
  br i1 %any, label %loop, label %done

loop:
  %i = phi i32 [ %tid, %s0 ], [ %i2, %loop ]
  %ie = sext i32 %i to i64
  %px = getelementptr inbounds float, ptr addrspace(1) %xs, i64 %ie
  %x = load float, ptr addrspace(1) %px, align 4
  %a = atomicrmw fadd ptr addrspace(1) %g, float %x syncscope("device") monotonic, align 4
  %sm = atomicrmw fmax ptr addrspace(3) @s_fmax, float %x syncscope("block") monotonic, align 4
  %xd = fpext float %x to double
  %pg1 = getelementptr inbounds double, ptr addrspace(1) %g, i64 1
  %b = atomicrmw fadd ptr addrspace(1) %pg1, double %xd acq_rel, align 8
  %xh = fptrunc float %x to half
  %pg2 = getelementptr inbounds half, ptr addrspace(1) %g, i64 8
  %c = atomicrmw fadd ptr addrspace(1) %pg2, half %xh syncscope("block") release, align 2
  %pg3 = getelementptr inbounds float, ptr addrspace(1) %g, i64 5
  %d = atomicrmw fmin ptr addrspace(1) %pg3, float %x syncscope("device") monotonic, align 4
  %i2 = add nsw i32 %i, 256
  %more = icmp slt i32 %i2, %n
  br i1 %more, label %loop, label %done

done:
  tail call void @llvm.nvvm.barrier0()
  br i1 %t0, label %pub, label %ret

pub:
  %m = load float, ptr addrspace(3) @s_fmax, align 4
  %pg4 = getelementptr inbounds float, ptr %gen, i64 6
  %e = atomicrmw fmax ptr %gen, float %m seq_cst, align 4
  %f = atomicrmw fadd ptr %pg4, float %m syncscope("cluster") acquire, align 4
  br label %ret

ret:
  ret void
}

define ptx_kernel void @ring_indices(ptr addrspace(1) %ring, ptr addrspace(3) %sring, ptr addrspace(1) %flags, i32 %cap, i32 %iters) {
entry:
  %tid = tail call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %any = icmp sgt i32 %iters, 0
  br i1 %any, label %loop, label %exit

loop:
  %k = phi i32 [ 0, %entry ], [ %k1, %latch ]
  %wi = atomicrmw uinc_wrap ptr addrspace(1) %ring, i32 %cap syncscope("device") acq_rel, align 4
  %ri = atomicrmw udec_wrap ptr addrspace(3) %sring, i32 %cap syncscope("block") monotonic, align 4
  %par = and i32 %k, 1
  %ev = icmp eq i32 %par, 0
  br i1 %ev, label %even, label %oddb

even:
  %we = zext i32 %wi to i64
  %pf = getelementptr inbounds i64, ptr addrspace(1) %flags, i64 %we
  %tk = zext i32 %tid to i64
  %cx = cmpxchg ptr addrspace(1) %pf, i64 0, i64 %tk syncscope("cluster") acq_rel acquire, align 8
  %won = extractvalue { i64, i1 } %cx, 1
  br i1 %won, label %latch, label %retry

retry:
  %old = extractvalue { i64, i1 } %cx, 0
  %ox = atomicrmw xor ptr addrspace(1) %pf, i64 %old syncscope("singlethread") monotonic, align 8
  br label %latch

oddb:
  %re = zext i32 %ri to i64
  %pf2 = getelementptr inbounds i64, ptr addrspace(1) %flags, i64 %re
  %ld = load atomic i64, ptr addrspace(1) %pf2 syncscope("cluster") acquire, align 8
  %nz = icmp ne i64 %ld, 0
  br i1 %nz, label %clear, label %latch

clear:
  store atomic i64 0, ptr addrspace(1) %pf2 syncscope("cluster") release, align 8
  br label %latch

latch:
  %k1 = add nuw nsw i32 %k, 1
  %more = icmp slt i32 %k1, %iters
  br i1 %more, label %loop, label %exit

exit:
  tail call void @llvm.nvvm.barrier0()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
